// The rows the diff view draws for one file, from FileDiff's hunks (every
// line numbered old/new): collapsed unchanged regions between hunks (or the
// lines read for them once expanded), each hunk's header and lines with the
// word-level changes of paired lines, the comment threads under the lines
// they are on, and a row for lines not loaded yet.
import type { FileDiff } from '../backend/review-api';
import { wordDiff, type Range } from './worddiff';

export type DiffHunkData = FileDiff['hunks'][number];
export type DiffLineData = DiffHunkData['lines'][number];

/** A line of the diff: 'ctx' is a line both versions have. */
export interface LineRow {
  key: string;
  kind: 'line';
  t: 'add' | 'del' | 'ctx';
  /** Line numbers in the old and new version (0: none). */
  old: number;
  new: number;
  text: string;
  /** The hunk (0-based) the line is in; -1 for an expanded unchanged line. */
  hunk: number;
  /** Changed stretches within the line (paired with the line it replaces). */
  words: Range[];
}
/** A hunk's header. */
export interface HunkRow {
  key: string;
  kind: 'hunk';
  hunk: number;
}
/** `count` unchanged lines before hunk `hunk` (after the last hunk when it is hunks.length), not shown: from oldFrom in the old version, newFrom in the new. */
export interface GapRow {
  key: string;
  kind: 'gap';
  hunk: number;
  oldFrom: number;
  newFrom: number;
  count: number;
}
/** A comment thread under the line it ends on (or under its hunk's header for a comment on the hunk). */
export interface ThreadRow {
  key: string;
  kind: 'thread';
  ids: number[];
}
/** Lines of the file not loaded yet. */
export interface MoreRow {
  key: string;
  kind: 'more';
  left: number;
}
export type Row = LineRow | HunkRow | GapRow | ThreadRow | MoreRow;

/** Where a comment is: its lines (side "old" numbers the old version), or line 0 for its whole hunk. */
export interface Anchor {
  id: number;
  /** 1-based hunk number. */
  index: number;
  side: 'old' | 'new';
  line: number;
  end_line?: number;
}

/** The first old and new line of a hunk and one past its last ones. */
export function hunkSpan(h: DiffHunkData): { oldFrom: number; oldEnd: number; newFrom: number; newEnd: number } {
  const oldFrom = h.old_lines === 0 ? h.old_start + 1 : h.old_start;
  const newFrom = h.new_lines === 0 ? h.new_start + 1 : h.new_start;
  return { oldFrom, oldEnd: oldFrom + h.old_lines, newFrom, newEnd: newFrom + h.new_lines };
}

/** The word changes of a hunk's lines: each run of removed lines paired line by line with the run of added lines after it. */
function wordsOf(lines: DiffLineData[]): Range[][] {
  const out: Range[][] = lines.map(() => []);
  for (let i = 0; i < lines.length; ) {
    if (lines[i].kind !== 'del') {
      i++;
      continue;
    }
    let d = i;
    while (d < lines.length && lines[d].kind === 'del') d++;
    let a = d;
    while (a < lines.length && lines[a].kind === 'add') a++;
    for (let k = 0; k < Math.min(d - i, a - d); k++) {
      const w = wordDiff(lines[i + k].text, lines[d + k].text);
      out[i + k] = w.old;
      out[d + k] = w.new;
    }
    i = a;
  }
  return out;
}

/**
 * The rows of one file's diff. `lines` holds each hunk's loaded lines (a
 * prefix of it while paging), `expanded` the unchanged lines read for the
 * gap before hunk i (new-version text; i = hunks.length for the lines after
 * the last hunk), `anchors` the comments on the file; `left` is how many
 * lines are not loaded yet, `total` how many lines the file has at the new
 * end (FileDiff.new_total; 0: unknown, no gap after the last hunk).
 */
export function diffRows(hunks: DiffHunkData[], lines: DiffLineData[][], expanded: ReadonlyMap<number, string[]>, anchors: Anchor[], left = 0, total = 0): Row[] {
  const rows: Row[] = [];
  const threads = new Map<string, number[]>();
  for (const a of anchors) {
    const k = a.line > 0 ? `${a.side}:${a.end_line || a.line}` : `h:${a.index}`;
    threads.set(k, [...(threads.get(k) ?? []), a.id]);
  }
  const thread = (k: string) => {
    const ids = threads.get(k);
    if (ids) rows.push({ key: `t:${k}`, kind: 'thread', ids });
    threads.delete(k);
  };
  const after = (l: { old: number; new: number; t: string }) => {
    if (l.t !== 'del' && l.new) thread(`new:${l.new}`);
    if (l.t !== 'add' && l.old) thread(`old:${l.old}`);
  };
  let oldAt = 1;
  let newAt = 1;
  // The unchanged lines before hunk i (i = hunks.length: after the last one): collapsed, or as read.
  const gap = (i: number, count: number) => {
    if (count <= 0) return;
    const got = expanded.get(i);
    if (!got) {
      rows.push({ key: `g:${i}`, kind: 'gap', hunk: i, oldFrom: oldAt, newFrom: newAt, count });
      return;
    }
    got.forEach((text, k) => {
      const l: LineRow = { key: `x:${i}:${k}`, kind: 'line', t: 'ctx', old: oldAt + k, new: newAt + k, text, hunk: -1, words: [] };
      rows.push(l);
      after(l);
    });
  };
  hunks.forEach((h, i) => {
    const s = hunkSpan(h);
    gap(i, s.newFrom - newAt);
    rows.push({ key: `h:${i}`, kind: 'hunk', hunk: i });
    thread(`h:${h.index}`);
    const ls = lines[i] ?? [];
    const words = wordsOf(ls);
    ls.forEach((d, k) => {
      const l: LineRow = { key: `l:${i}:${k}`, kind: 'line', t: d.kind === 'add' ? 'add' : d.kind === 'del' ? 'del' : 'ctx', old: d.old, new: d.new, text: d.text, hunk: i, words: words[k] };
      rows.push(l);
      after(l);
    });
    oldAt = s.oldEnd;
    newAt = s.newEnd;
  });
  if (left > 0) rows.push({ key: 'more', kind: 'more', left });
  else if (hunks.length) gap(hunks.length, total - newAt + 1);
  // Threads whose line is not shown (not loaded, or the diff moved): at the end, never lost.
  for (const [k, ids] of threads) rows.push({ key: `t:${k}`, kind: 'thread', ids });
  return rows;
}

/** A row of the side-by-side view: an old line and a new one, or a full-width row. */
export type SideRow = { key: string; kind: 'pair'; left?: LineRow; right?: LineRow } | Exclude<Row, LineRow>;

/** Pairs the rows for a side-by-side view: unchanged lines on both sides, a run of removed lines beside the added run after it. */
export function sideRows(rows: Row[]): SideRow[] {
  const out: SideRow[] = [];
  let dels: LineRow[] = [];
  let adds: LineRow[] = [];
  let held: SideRow[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) out.push({ key: `p:${(dels[i] ?? adds[i]).key}`, kind: 'pair', left: dels[i], right: adds[i] });
    out.push(...held);
    dels = [];
    adds = [];
    held = [];
  };
  for (const r of rows) {
    if (r.kind === 'line' && r.t === 'del') {
      if (adds.length) flush();
      dels.push(r);
    } else if (r.kind === 'line' && r.t === 'add') adds.push(r);
    else if (r.kind === 'thread' && (dels.length || adds.length)) held.push(r);
    else {
      flush();
      out.push(r.kind === 'line' ? { key: `p:${r.key}`, kind: 'pair', left: r, right: r } : r);
    }
  }
  flush();
  return out;
}

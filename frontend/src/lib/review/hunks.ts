import type { ChangeRequest, ReviewComment, ReviewDrop } from '../backend/review-api';

export interface PatchLine {
  n: number;
  kind: 'add' | 'del' | 'hunk' | 'meta' | 'ctx';
  text: string;
  /** Index of the hunk the line belongs to, -1 for the file header. */
  hunk: number;
}

/** One "@@" section of a unified patch. */
export interface Hunk {
  index: number;
  /** Index of the "@@" line in patchLines(). */
  start: number;
  /** Index one past the hunk's last line. */
  end: number;
  header: string;
  /** First line of the hunk in the new version (0 for a deleted file). */
  newStart: number;
  /** The hunk's text from its "@@" line, newline-terminated (what the Go side quotes). */
  text: string;
}

const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** Splits a unified patch into typed lines; "---"/"+++" count as headers only before the first hunk. */
export function patchLines(patch: string): PatchLine[] {
  const raw = patch.endsWith('\n') ? patch.slice(0, -1).split('\n') : patch.split('\n');
  let hunk = -1;
  return raw.map((text, n) => {
    let kind: PatchLine['kind'];
    if (HUNK.test(text)) {
      hunk++;
      kind = 'hunk';
    } else if (hunk < 0 || text.startsWith('diff --git ')) {
      kind = 'meta';
    } else {
      kind = text.startsWith('+') ? 'add' : text.startsWith('-') ? 'del' : text.startsWith('\\') ? 'meta' : 'ctx';
    }
    return { n, kind, text, hunk: kind === 'meta' && hunk < 0 ? -1 : hunk };
  });
}

/** The hunks of patchLines(patch), each with its text and first new line. */
export function parseHunks(lines: PatchLine[]): Hunk[] {
  const out: Hunk[] = [];
  for (const l of lines) {
    if (l.kind === 'hunk') {
      out.push({ index: out.length, start: l.n, end: l.n + 1, header: l.text, newStart: Number(HUNK.exec(l.text)![1]), text: '' });
    } else if (out.length && l.hunk === out.length - 1) {
      out[out.length - 1].end = l.n + 1;
    }
  }
  for (const h of out) h.text = lines.slice(h.start, h.end).map((l) => l.text).join('\n') + '\n';
  return out;
}

/** The user's choices on one hunk: a comment and/or "drop this hunk". */
export interface HunkChoice {
  file: string;
  hunk: number;
  line: number;
  text: string;
  comment: string;
  drop: boolean;
}

/** Key of a hunk choice. */
export const choiceKey = (file: string, hunk: number): string => `${file}\u0000${hunk}`;

/**
 * Builds the RequestChanges payload: comments with text (trimmed) and dropped
 * hunks, ordered by file then hunk. Blank comments are left out.
 */
export function buildChangeRequest(general: string, choices: Iterable<HunkChoice>): ChangeRequest {
  const sorted = [...choices].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.hunk - b.hunk));
  const comments: ReviewComment[] = [];
  const drops: ReviewDrop[] = [];
  for (const c of sorted) {
    const text = c.comment.trim();
    if (text) comments.push({ file: c.file, line: c.line, hunk: c.text, text });
    if (c.drop) drops.push({ file: c.file, hunk: c.text });
  }
  return { general: general.trim(), comments, drops };
}

/** One row of the side-by-side view: the old line on the left, the new on the right. */
export interface SideRow {
  n: number;
  kind: 'hunk' | 'meta' | 'pair';
  /** The whole line for hunk and meta rows. */
  text?: string;
  left?: { kind: 'del' | 'ctx'; text: string };
  right?: { kind: 'add' | 'ctx'; text: string };
}

/**
 * Pairs the lines of a unified patch for a side-by-side view: context lines
 * stand on both sides; a run of removed lines is paired with the run of added
 * lines that follows it, line by line, the longer run leaving blanks.
 */
export function sideBySide(lines: PatchLine[]): SideRow[] {
  const rows: SideRow[] = [];
  let dels: PatchLine[] = [];
  let adds: PatchLine[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) {
      const d = dels[i];
      const a = adds[i];
      rows.push({
        n: (d ?? a)!.n,
        kind: 'pair',
        left: d ? { kind: 'del', text: d.text.slice(1) } : undefined,
        right: a ? { kind: 'add', text: a.text.slice(1) } : undefined,
      });
    }
    dels = [];
    adds = [];
  };
  for (const l of lines) {
    if (l.kind === 'del') {
      if (adds.length) flush();
      dels.push(l);
    } else if (l.kind === 'add') {
      adds.push(l);
    } else {
      flush();
      if (l.kind === 'ctx') {
        const text = l.text.slice(1);
        rows.push({ n: l.n, kind: 'pair', left: { kind: 'ctx', text }, right: { kind: 'ctx', text } });
      } else {
        rows.push({ n: l.n, kind: l.kind, text: l.text });
      }
    }
  }
  flush();
  return rows;
}

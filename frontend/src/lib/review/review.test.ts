import { afterEach, describe, expect, it, vi } from 'vitest';
import { StubBackend } from '../backend/stub';
import { demo, detailOf } from '../backend/stub-data';
import { transitionError } from '../backend/goldens';
import type { DiffFile, DiffSummary, Report } from '../backend/types';
import type { FileDiff, FileDiffRequest, ReviewDraft } from '../backend/review-api';
import { ReviewStore, SAVE_DELAY_MS } from './review.svelte';

const BIG = demo('Rename the module path');
const DONE = demo('Refactor settings loader');

/** A diff of n files, one binary, each with its content hash. */
function diffOf(id: string, n: number, prefix = 'pkg'): DiffSummary {
  const files: DiffFile[] = [];
  for (let i = 0; i < n; i++) files.push({ path: `${prefix}/f${String(i).padStart(4, '0')}.go`, change: 'modified', additions: 3, deletions: 1, binary: i === 5, hash: `h${i}` });
  return { task_id: id, base: 'main', head: 'feedc0de', files };
}

type Line = FileDiff['hunks'][number]['lines'][number];
const ctx = (o: number, n: number, text: string): Line => ({ kind: 'context', old: o, new: n, text });
const del = (o: number, text: string): Line => ({ kind: 'del', old: o, new: 0, text });
const add = (n: number, text: string): Line => ({ kind: 'add', old: 0, new: n, text });
const hunk = (index: number, header: string, os: number, ol: number, ns: number, nl: number, lines: Line[]) => ({ index, header, section: '', old_start: os, old_lines: ol, new_start: ns, new_lines: nl, count: lines.length, first_line: 0, lines });

/** Two hunks: lines 1-2 (b becomes B) and, after 17 unchanged lines, an added d after line 20. */
const TWO = [
  hunk(1, '@@ -1,2 +1,2 @@', 1, 2, 1, 2, [ctx(1, 1, 'a'), del(2, 'var b = 1'), add(2, 'var B = 1')]),
  hunk(2, '@@ -20 +20,2 @@', 20, 1, 20, 2, [ctx(20, 20, 'c'), add(21, 'd')]),
];

/** A file's diff as Go gives it, the window FileDiffRequest asks for (lines across hunks, in order). */
function fileDiffOf(summary: DiffSummary, req: FileDiffRequest): FileDiff {
  const f = summary.files.find((x) => x.path === req.path)!;
  // The file has 40 lines at the new end (FileLines' total); Go says so on the first window only.
  const first = req.from_hunk === 0 && req.from_line === 0;
  const base = { ...f, hash: f.hash ?? '', old_mode: '100644', new_mode: '100644', mode_changed: false, language: 'go', base: 'main', head: summary.head, next: undefined, new_total: first ? 40 : 0 };
  if (f.binary) return { ...base, hunks: [], lines: 0 };
  const all = f.path.endsWith('x.go') ? TWO : [hunk(1, '@@ -1,2 +1,4 @@', 1, 2, 1, 4, [del(1, 'old'), add(1, 'new'), add(2, 'new'), add(3, 'new'), ctx(2, 4, 'ctx')])];
  // Window the lines: from (from_hunk, from_line), at most max_lines.
  let budget = req.max_lines;
  let next: FileDiff['next'];
  const hunks = all.map((h, i) => {
    if (i < req.from_hunk || budget <= 0) {
      if (budget <= 0 && !next && i >= req.from_hunk) next = { hunk: i, line: 0 };
      return { ...h, lines: [] };
    }
    const from = i === req.from_hunk ? req.from_line : 0;
    const lines = h.lines.slice(from, from + budget);
    budget -= lines.length;
    if (from + lines.length < h.lines.length && !next) next = { hunk: i, line: from + lines.length };
    return { ...h, first_line: from, lines };
  });
  return { ...base, hunks, lines: all.reduce((n, h) => n + h.count, 0), next };
}

/** A backend for a task's review: its diff, its leftovers (3 files), its commits, a draft kept as Go keeps it. */
function reviewBackend(id: string, files = 5000, extra: DiffFile[] = []) {
  const changes = diffOf(id, files);
  changes.files.push(...extra);
  const leftovers = diffOf(id, 3, 'scratch');
  let stored: ReviewDraft | null = null;
  let layout = 'unified';
  const b = new StubBackend({
    'ReviewService.Summary': () => changes,
    'ReviewService.FileDiff': (_id, req) => fileDiffOf(req.leftovers ? leftovers : changes, req),
    'ReviewService.FileLines': (_id, req) => ({ path: req.path, side: req.side, from: req.from, to: req.to, total: 40, lines: Array.from({ length: req.to - req.from + 1 }, (_, k) => `line ${req.from + k}`) }),
    'ReviewService.LeftoversSummary': () => leftovers,
    'ReviewService.Draft': () => structuredClone(stored ?? { head: '', general: '', comments: [], drops: [], chosen: [], viewed: [], updated_at: '', moved: false, unviewed: [] }),
    'ReviewService.SaveDraft': (_id, d) => {
      // What Go keeps: JSON, without the screen's own fields.
      stored = JSON.parse(JSON.stringify(d));
      return stored!;
    },
    'SettingsService.DiffView': () => layout,
    'SettingsService.SetDiffView': (l) => (layout = l),
    'ReviewService.Commits': () => [
      { sha: '9b8e771', subject: 'Rename the module path in every package', author: 'developer agent', date: '2026-11-30T07:00:00Z' },
      { sha: '5d1c2a0', subject: 'Add a test for the path rewrite', author: 'developer agent', date: '2026-11-30T07:10:00Z' },
    ],
  });
  return Object.assign(b, { changes, stored: () => stored, setStored: (d: ReviewDraft) => (stored = d) });
}

const X: DiffFile = { path: 'x.go', change: 'modified', additions: 2, deletions: 1, binary: false, hash: 'hx' };

afterEach(() => {
  vi.useRealTimers();
});

describe('ReviewStore', () => {
  it('loads 5000 files from the summary and one file diff on demand, walking them in the tree order', async () => {
    const b = reviewBackend(BIG.id);
    const s = new ReviewStore(b, BIG.id);
    await s.load();
    expect(s.summary!.files).toHaveLength(5000);
    expect(b.count('ReviewService.FileDiff')).toBe(1);
    expect(s.shown!.diff.path).toBe(s.order[0].path);
    s.step(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(s.selected).toBe(s.order[1].path);
    s.step(-5);
    expect(s.selected).toBe(s.order[0].path);
    const n = b.calls.length;
    await s.select(s.order[0].path);
    expect(b.calls.length).toBe(n); // cached
  });

  it('numbers every line old and new, hides nothing of git but the data, and pairs the changed words', async () => {
    const s = new ReviewStore(reviewBackend(DONE.id, 3, [X]), DONE.id);
    await s.load();
    await s.select('x.go');
    const lines = s.rows.filter((r) => r.kind === 'line');
    expect(lines.map((l) => [l.t, l.old, l.new])).toEqual([
      ['ctx', 1, 1],
      ['del', 2, 0],
      ['add', 0, 2],
      ['ctx', 20, 20],
      ['add', 0, 21],
    ]);
    expect(lines[1].words).toEqual([[4, 5]]); // "b" in "var b = 1"
    expect(lines[2].words).toEqual([[4, 5]]);
    // The 17 unchanged lines between the hunks are one collapsed row until expanded.
    const gap = s.rows.find((r) => r.kind === 'gap')!;
    expect(gap).toMatchObject({ hunk: 1, oldFrom: 3, newFrom: 3, count: 17 });
    await s.expand(1, 3, 17);
    expect(s.rows.some((r) => r.kind === 'gap' && r.hunk === 1)).toBe(false);
    const shown = s.rows.filter((r) => r.kind === 'line' && r.hunk === -1);
    expect(shown).toHaveLength(17);
    expect(shown[0]).toMatchObject({ old: 3, new: 3, text: 'line 3' });
  });

  it('expands the unchanged lines after the last hunk, up to the end of the file', async () => {
    const b = reviewBackend(DONE.id, 3, [X]);
    const s = new ReviewStore(b, DONE.id);
    await s.load();
    await s.select('x.go');
    // x.go has 40 lines; its last hunk ends at new line 21 (old 20): 19 lines after it.
    const tail = s.rows.at(-1)!;
    expect(tail).toMatchObject({ kind: 'gap', hunk: 2, oldFrom: 21, newFrom: 22, count: 19 });
    if (tail.kind !== 'gap') return;
    await s.expand(tail.hunk, tail.newFrom, tail.count);
    expect(b.argsOf('ReviewService.FileLines').at(-1)![1]).toMatchObject({ path: 'x.go', side: 'new', from: 22, to: 40 });
    const shown = s.rows.filter((r) => r.kind === 'line' && r.hunk === -1);
    expect(shown.map((l) => (l.kind === 'line' ? [l.old, l.new, l.text] : []))).toEqual(Array.from({ length: 19 }, (_, k) => [21 + k, 22 + k, `line ${22 + k}`]));
    expect(s.rows.some((r) => r.kind === 'gap' && r.hunk === 2)).toBe(false);
  });

  it('takes a comment on an expanded unchanged line: the file and its new line, in no hunk', async () => {
    const b = reviewBackend(DONE.id, 3, [X]);
    const s = new ReviewStore(b, DONE.id);
    await s.load();
    await s.select('x.go');
    await s.expand(2, 22, 19);
    s.pickLine(-1, 'new', 25);
    const id = s.startComment()!;
    s.setText(id, 'This constant is unused');
    expect(s.request.comments).toEqual([{ file: 'x.go', line: 25, side: 'new', hunk: '', text: 'This constant is unused', index: 0, header: '' }]);
    const at = s.rows.findIndex((r) => r.kind === 'thread');
    expect(s.rows[at - 1]).toMatchObject({ kind: 'line', hunk: -1, new: 25 });
  });

  it('pages through a file larger than a window as the view reaches its end', async () => {
    const b = reviewBackend(DONE.id, 3, [X]);
    const s = new ReviewStore(b, DONE.id);
    await s.load();
    // A window of 2 lines (PAGE_LINES is larger; the stub windows what it is asked).
    b.on('ReviewService.FileDiff', (_id, req) => fileDiffOf(b.changes, { ...req, max_lines: 2 }));
    await s.select('x.go');
    expect(s.rows.at(-1)).toMatchObject({ kind: 'more', left: 3 });
    await s.more();
    await s.more();
    expect(s.rows.some((r) => r.kind === 'more')).toBe(false);
    expect(s.rows.filter((r) => r.kind === 'line').map((l) => (l.kind === 'line' ? l.text : ''))).toEqual(['a', 'var b = 1', 'var B = 1', 'c', 'd']);
    expect(b.argsOf('ReviewService.FileDiff').at(-1)![1]).toMatchObject({ from_hunk: 1, from_line: 1 });
  });

  it('shows the file selected last: a file still loading does not replace a cached one chosen after it', async () => {
    const b = reviewBackend(DONE.id, 3, [X]);
    const s = new ReviewStore(b, DONE.id);
    await s.load();
    const first = s.selected!;
    let release: () => void = () => {};
    b.on('ReviewService.FileDiff', (_id, req) => new Promise((r) => (release = () => r(fileDiffOf(b.changes, req)))));
    const slow = s.select('x.go'); // n: still loading
    await s.select(first); // p: back to the cached file at once
    release();
    await slow;
    expect(s.selected).toBe(first);
    expect(s.shownPath).toBe(first);
  });

  it('explains a task without a branch', async () => {
    const pending = demo('Document the CLI');
    const b = new StubBackend({
      'ReviewService.Summary': (id) => {
        throw new Error(`Task ${id} has no branch yet.`);
      },
      'ReviewService.Draft': () => ({ head: '', general: '', comments: [], drops: [], chosen: [], viewed: [], updated_at: '', moved: false, unviewed: [] }),
      'SettingsService.DiffView': () => 'unified',
    });
    const s = new ReviewStore(b, pending.id);
    await s.load();
    expect(s.summary).toBeNull();
    expect(s.error).toMatch(/has no branch yet/);
  });
});

describe('ReviewStore tabs', () => {
  it('switches to leftovers and commits', async () => {
    const b = reviewBackend(BIG.id);
    const s = new ReviewStore(b, BIG.id);
    await s.load();
    await s.show('leftovers');
    expect(s.summary!.files).toHaveLength(3);
    expect(b.argsOf('ReviewService.FileDiff').at(-1)![1]).toMatchObject({ leftovers: true });
    await s.show('commits');
    expect(s.commits.map((c) => c.sha)).toEqual(['9b8e771', '5d1c2a0']);
    await s.show('changes');
    expect(s.summary!.files).toHaveLength(5000);
  });

  it('reloads the shown file without whitespace-only changes when asked', async () => {
    const b = reviewBackend(BIG.id);
    const s = new ReviewStore(b, BIG.id);
    await s.load();
    const path = s.selected!;
    await s.setIgnoreWhitespace(true);
    expect(b.argsOf('ReviewService.FileDiff').at(-1)).toEqual([s.taskId, { path, ignore_whitespace: true, leftovers: false, from_hunk: 0, from_line: 0, max_lines: 2000 }]);
    const n = b.count('ReviewService.FileDiff');
    await s.setIgnoreWhitespace(false);
    expect(b.count('ReviewService.FileDiff')).toBe(n); // the plain diff came from the cache
  });

  it('shows only observer and reviewer reports with their verdicts', async () => {
    const report = (role: Report['role'], iteration: number, round: number, verdict?: Report['verdict']): Report => ({ role, iteration, round, body: `${role} report`, created_at: `2026-11-30T0${iteration}:0${round}:00Z`, ...(verdict ? { verdict } : {}) });
    const reports = [report('planner', 1, 1), report('developer', 1, 1), report('observer', 1, 1, 'CHANGES_REQUESTED'), report('observer', 1, 2, 'APPROVE'), report('reviewer', 1, 1, 'APPROVE'), report('developer', 2, 1), report('reviewer', 2, 1, 'APPROVE')];
    const b = new StubBackend({ 'TaskService.Get': () => detailOf(DONE, { reports }) });
    const s = new ReviewStore(b, DONE.id);
    await s.show('reports');
    expect(s.reports.length).toBeGreaterThan(0);
    expect(s.reports.every((r) => r.role === 'observer' || r.role === 'reviewer')).toBe(true);
    for (let i = 1; i < s.reports.length; i++) expect(s.reports[i - 1].iteration).toBeGreaterThanOrEqual(s.reports[i].iteration);
    expect(s.error).toBe('');
  });
});

describe('ReviewStore decisions', () => {
  it('chooses files and hunks for a hunk-level accept', async () => {
    const s = new ReviewStore(reviewBackend(DONE.id, 3, [X]), DONE.id);
    await s.load();
    await s.select('x.go');
    expect(s.selection).toEqual([]);
    s.pickHunk(1);
    expect(s.selection).toEqual([{ file: 'x.go', hunks: [2] }]);
    expect(s.picked('x.go', 1)).toBe(true);
    expect(s.picked('x.go', 0)).toBe(false);
    s.pickHunk(0);
    expect(s.selection).toEqual([{ file: 'x.go' }]); // every hunk: the whole file
    s.pickHunk(1);
    expect(s.selection).toEqual([{ file: 'x.go', hunks: [1] }]);
    s.pickFile('go.mod');
    expect(s.selection).toEqual([{ file: 'x.go', hunks: [1] }, { file: 'go.mod' }]);
    s.pickFile('go.mod');
    s.pickHunk(0);
    expect(s.selection).toEqual([]);
  });

  it('moves between hunks with j/k within the file', async () => {
    const s = new ReviewStore(reviewBackend(DONE.id, 6, [X]), DONE.id);
    await s.load();
    await s.select('x.go');
    expect(s.hunks.map((h) => h.new_start)).toEqual([1, 20]);
    expect(s.stepHunk(1)).toBe(1);
    expect(s.stepHunk(1)).toBe(1);
    expect(s.stepHunk(-5)).toBe(0);
    await s.select('pkg/f0005.go'); // binary
    expect(s.stepHunk(1)).toBeUndefined();
  });

  it('builds the request from line, range and hunk comments and drops, and sends it', async () => {
    const b = reviewBackend(DONE.id, 3, [X]);
    b.on('ReviewService.RequestChanges', () => ({ request: 1, fix: 1, body: '## Human review' }));
    const id = DONE.id;
    const s = new ReviewStore(b, id);
    await s.load();
    const first = s.selected!;
    s.startComment(0); // on the whole hunk
    s.setText(s.editing!, 'Keep the old name as an alias');
    s.toggleDrop(0);
    await s.select('x.go');
    s.toggleDrop(1);
    s.pickLine(0, 'new', 2);
    s.startComment();
    s.setText(s.editing!, ' Name it b ');
    s.pickLine(1, 'new', 20);
    s.pickLine(1, 'new', 21, true); // shift-click: a range
    s.startComment();
    s.setText(s.editing!, 'typed then cleared');
    s.setText(s.editing!, '  ');
    s.closeEditor(); // an empty comment goes away
    s.general = ' Good start ';
    expect(s.request).toEqual({
      general: 'Good start',
      comments: [
        { file: first, line: 0, hunk: '', text: 'Keep the old name as an alias', index: 1, header: '@@ -1,2 +1,4 @@' },
        { file: 'x.go', line: 2, side: 'new', hunk: '', text: 'Name it b', index: 1, header: '@@ -1,2 +1,2 @@' },
      ],
      drops: [
        { file: first, hunk: '', index: 1, header: '@@ -1,2 +1,4 @@' },
        { file: 'x.go', hunk: '', index: 2, header: '@@ -20 +20,2 @@' },
      ],
    });
    // A hunk choice and a viewed mark go with the rest once sent.
    s.pickFile('x.go');
    s.toggleViewed('x.go');
    expect(s.picks).not.toEqual({});
    const want = JSON.parse(JSON.stringify(s.request));
    expect(await s.requestChanges()).toBe(true);
    expect(b.argsOf('ReviewService.RequestChanges')).toEqual([[id, want]]);
    expect(s.comments).toEqual([]);
    expect(s.drops).toEqual({});
    expect(s.picks).toEqual({});
    expect(s.viewed).toEqual({});
    expect(s.notice).toBe('Fix run 1 queued: the developer gets 2 comments and your general comment, after 2 dropped hunks are reverted.');
  });

  it('anchors a range comment on its first and last line, and shows it under the last', async () => {
    const s = new ReviewStore(reviewBackend(DONE.id, 3, [X]), DONE.id);
    await s.load();
    await s.select('x.go');
    s.pickLine(1, 'new', 21);
    s.pickLine(1, 'new', 20, true);
    const cid = s.startComment()!;
    s.setText(cid, 'Both lines');
    expect(s.request.comments).toEqual([{ file: 'x.go', line: 20, end_line: 21, side: 'new', hunk: '', text: 'Both lines', index: 2, header: '@@ -20 +20,2 @@' }]);
    const at = s.rows.findIndex((r) => r.kind === 'thread');
    expect(s.rows[at - 1]).toMatchObject({ kind: 'line', new: 21 });
    // A removed line is anchored on the old side.
    s.pickLine(0, 'old', 2);
    const oid = s.startComment()!;
    s.setText(oid, 'Why?');
    expect(s.request.comments[0]).toMatchObject({ line: 2, side: 'old', index: 1 });
    expect(s.rows[s.rows.findIndex((r) => r.kind === 'thread') - 1]).toMatchObject({ kind: 'line', t: 'del', old: 2 });
  });

  it('saves the unsent review (debounced) and gets it back in a new store, as after a reload', async () => {
    vi.useFakeTimers();
    const b = reviewBackend(DONE.id, 3, [X]);
    const s = new ReviewStore(b, DONE.id);
    await s.load();
    await s.select('x.go');
    s.pickLine(0, 'new', 2);
    s.setText(s.startComment()!, 'Name it b');
    s.toggleDrop(1);
    s.pickHunk(0);
    s.toggleViewed('x.go');
    s.general = 'Nearly';
    expect(b.count('ReviewService.SaveDraft')).toBe(0);
    expect(s.draft).toBe('saving');
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(b.count('ReviewService.SaveDraft')).toBe(1); // one save for all the changes
    expect(s.draft).toBe('saved');
    await s.setLayout('split');
    vi.useRealTimers();

    const again = new ReviewStore(b, DONE.id);
    await again.load();
    await again.select('x.go');
    expect(again.general).toBe('Nearly');
    expect(again.request).toEqual(s.request);
    expect(again.selection).toEqual([{ file: 'x.go', hunks: [1] }]);
    expect(again.isViewed('x.go')).toBe(true);
    expect(again.isViewed(again.order[0].path)).toBe(false);
    expect(again.layout).toBe('split');
    expect(again.sideRows.length).toBeGreaterThan(0);
    expect(b.stored()!.viewed).toEqual([{ path: 'x.go', hash: 'hx' }]);
  });

  it('shows a file changed since it was viewed as unviewed, and saves nothing before the draft is read', async () => {
    const b = reviewBackend(DONE.id, 3, [X]);
    b.setStored({ head: 'old', general: '', comments: [], drops: [], chosen: [], viewed: [{ path: 'x.go', hash: 'stale' }], updated_at: '', moved: true, unviewed: ['pkg/f0001.go'] });
    const s = new ReviewStore(b, DONE.id);
    s.general = 'typed before the draft came';
    expect(s.draft).toBe('loading');
    await s.load();
    expect(b.count('ReviewService.SaveDraft')).toBe(0);
    expect(s.isViewed('x.go')).toBe(false); // its content is not the one viewed
    expect(s.changedSinceViewed).toEqual(['pkg/f0001.go']);
  });

  it('keeps what was done before the draft was read beside it, and saves both', async () => {
    vi.useFakeTimers();
    const b = reviewBackend(DONE.id, 3, [X]);
    b.setStored({ head: 'h', general: 'From before', comments: [], drops: [], chosen: [], viewed: [], updated_at: '', moved: false, unviewed: [] });
    const s = new ReviewStore(b, DONE.id);
    s.general = 'typed while it loaded';
    await s.load();
    expect(s.general).toBe('From before\n\ntyped while it loaded');
    expect(b.count('ReviewService.SaveDraft')).toBe(0);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(b.count('ReviewService.SaveDraft')).toBe(1);
    expect(b.stored()!.general).toBe('From before\n\ntyped while it loaded');
    vi.useRealTimers();
  });

  it('saves a change still in its debounce at once when flushed (a reload, another task)', async () => {
    vi.useFakeTimers();
    const b = reviewBackend(DONE.id, 3, [X]);
    const s = new ReviewStore(b, DONE.id);
    await s.load();
    s.general = 'Do not lose me';
    expect(b.count('ReviewService.SaveDraft')).toBe(0);
    s.flush();
    await vi.advanceTimersByTimeAsync(0);
    expect(b.count('ReviewService.SaveDraft')).toBe(1);
    expect(b.stored()!.general).toBe('Do not lose me');
    vi.useRealTimers();
  });

  it('refuses an empty request without calling the backend', async () => {
    const b = reviewBackend(DONE.id, 3);
    const s = new ReviewStore(b, DONE.id);
    await s.load();
    expect(await s.requestChanges()).toBe(false);
    expect(s.error).toMatch(/Write a comment/);
    expect(b.count('ReviewService.RequestChanges')).toBe(0);
  });

  it('rejects deleting exactly the confirmed branches', async () => {
    const branches = [
      { name: BIG.branch!, sha: '9b8e771000000000000000000000000000000000', unique: 2 },
      { name: `${BIG.branch}--leftovers`, sha: 'c0ffee1000000000000000000000000000000000', unique: 1 },
    ];
    const b = new StubBackend({
      'ReviewService.TaskBranches': () => branches,
      // Go deletes exactly the confirmed list, and refuses one that is not the whole list (nothing changes).
      'ReviewService.RejectDeletingBranches': (_id, confirm) => {
        if (confirm.length !== branches.length) throw new Error('Not confirmed: the task has 2 branches, 1 were confirmed; nothing changed.');
        return { deleted: confirm, at: '2026-11-30T10:00:00Z' };
      },
    });
    const s = new ReviewStore(b, BIG.id);
    const got = await s.taskBranches();
    expect(got.map((x) => x.name)).toEqual([BIG.branch, `${BIG.branch}--leftovers`]);
    expect(await s.rejectDeletingBranches(got.slice(0, 1))).toBe(false);
    expect(s.error).toContain('Not confirmed');
    expect(await s.rejectDeletingBranches(got)).toBe(true);
    expect(b.argsOf('ReviewService.RejectDeletingBranches').at(-1)).toEqual([BIG.id, got]);
    expect(s.notice).toContain('Deleted');
  });

  it('rejects a done task, keeping its branch, and not a failed one', async () => {
    const failed = demo('Parse codex usage lines');
    const b = new StubBackend({
      'ReviewService.Reject': (id) => {
        if (id === failed.id) throw new Error(transitionError('failed', 'rejected'));
      },
    });
    const s = new ReviewStore(b, DONE.id);
    expect(await s.reject()).toBe(true);
    expect(b.argsOf('ReviewService.Reject')).toEqual([[DONE.id]]);
    expect(b.count('ReviewService.RejectDeletingBranches')).toBe(0);
    const f = new ReviewStore(b, failed.id);
    expect(await f.reject()).toBe(false);
    expect(f.error).toBe(transitionError('failed', 'rejected'));
  });
});

describe('ReviewStore undo accept', () => {
  it('undoes the accept of an accepted task', async () => {
    let accepted = false;
    const b = new StubBackend({
      'ReviewService.UndoAccept': () => {
        if (!accepted) throw new Error('Undo accept: the task has no accept to undo.');
      },
    });
    const s = new ReviewStore(b, DONE.id);
    expect(await s.undoAccept()).toBe(false);
    expect(s.error).toMatch(/has no accept to undo/);
    accepted = true; // accepted meanwhile (the accept dialog, the CLI)
    expect(await s.undoAccept()).toBe(true);
    expect(b.argsOf('ReviewService.UndoAccept')).toEqual([[DONE.id], [DONE.id]]);
    expect(s.notice).toMatch(/Accept undone/);
  });
});

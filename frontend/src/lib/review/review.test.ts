import { describe, expect, it } from 'vitest';
import { StubBackend } from '../backend/stub';
import { demo, detailOf } from '../backend/stub-data';
import { transitionError } from '../backend/goldens';
import type { DiffFile, DiffSummary, FilePatch, Report } from '../backend/types';
import { ReviewStore, patchLines } from './review.svelte';

const BIG = demo('Rename the module path');
const DONE = demo('Refactor settings loader');

/** A diff of n files, every 7th a large one (over the inline limit), one binary. */
function diffOf(id: string, n: number, prefix = 'pkg'): DiffSummary {
  const files: DiffFile[] = [];
  for (let i = 0; i < n; i++) files.push({ path: `${prefix}/f${String(i).padStart(4, '0')}.go`, change: 'modified', additions: i % 7 === 3 ? 200 : 3, deletions: 1, binary: i === 5 });
  return { task_id: id, base: 'main', head: 'feedc0de', files };
}

/** A file's patch as Go gives it: too large unless forced when it has over 110 added lines. */
function patchOf(summary: DiffSummary, path: string, force: boolean): FilePatch {
  const f = summary.files.find((x) => x.path === path)!;
  const body = `--- a/${path}\n+++ b/${path}\n@@ -1,2 +1,${f.additions + 1} @@\n-old\n${'+new\n'.repeat(f.additions)} ctx\n`;
  if (f.binary) return { path, patch: '', binary: true, too_large: false, bytes: 9 };
  if (f.additions > 110 && !force) return { path, patch: '', binary: false, too_large: true, bytes: body.length };
  return { path, patch: body, binary: false, too_large: false, bytes: body.length };
}

/** A backend for a task's review: its diff, its leftovers (3 files), its commits. */
function reviewBackend(id: string, files = 5000) {
  const changes = diffOf(id, files);
  const leftovers = diffOf(id, 3, 'scratch');
  return new StubBackend({
    'ReviewService.Summary': () => changes,
    'ReviewService.FilePatch': (_id, path, force) => patchOf(changes, path, force),
    'ReviewService.FilePatchWith': (_id, path, o) => patchOf(o.leftovers ? leftovers : changes, path, o.force),
    'ReviewService.LeftoversSummary': () => leftovers,
    'ReviewService.LeftoversFilePatch': (_id, path, force) => patchOf(leftovers, path, force),
    'ReviewService.Commits': () => [
      { sha: '9b8e771', subject: 'Rename the module path in every package', author: 'developer agent', date: '2026-11-30T07:00:00Z' },
      { sha: '5d1c2a0', subject: 'Add a test for the path rewrite', author: 'developer agent', date: '2026-11-30T07:10:00Z' },
    ],
  });
}

describe('patchLines', () => {
  it('types each line', () => {
    expect(patchLines('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n c\n').map((l) => l.kind)).toEqual(['meta', 'meta', 'hunk', 'del', 'add', 'ctx']);
  });
});

describe('ReviewStore', () => {
  it('loads 5000 files from the summary and one patch on demand', async () => {
    const b = reviewBackend(BIG.id);
    const s = new ReviewStore(b, BIG.id);
    await s.load();
    expect(s.summary!.files).toHaveLength(5000);
    expect(b.count('ReviewService.FilePatch')).toBe(1);
    expect(s.patch!.path).toBe(s.summary!.files[0].path);
    s.step(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(s.selected).toBe(s.summary!.files[1].path);
    s.step(-5);
    expect(s.selected).toBe(s.summary!.files[0].path);
    const n = b.calls.length;
    await s.select(s.summary!.files[0].path);
    expect(b.calls.length).toBe(n); // cached
  });

  it('shows a large patch only when asked', async () => {
    const b = reviewBackend(BIG.id);
    const s = new ReviewStore(b, BIG.id);
    await s.load();
    const big = s.summary!.files.find((f) => f.additions > 110 && !f.binary)!;
    await s.select(big.path);
    expect(s.patch!.too_large).toBe(true);
    await s.select(big.path, true);
    expect(b.argsOf('ReviewService.FilePatch').at(-1)).toEqual([BIG.id, big.path, true]);
    expect(s.patch!.too_large).toBe(false);
    expect(s.patch!.patch).toContain('+++ b/');
  });

  it('explains a task without a branch', async () => {
    const pending = demo('Document the CLI');
    const b = new StubBackend({
      'ReviewService.Summary': (id) => {
        throw new Error(`Task ${id} has no branch yet.`);
      },
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
    expect(b.calls.at(-1)!.method).toBe('ReviewService.LeftoversFilePatch');
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
    const call = b.calls.at(-1)!;
    expect(call.method).toBe('ReviewService.FilePatchWith');
    expect(call.args).toEqual([s.taskId, path, { force: false, ignore_whitespace: true, leftovers: false }]);
    expect(s.patch!.path).toBe(path);
    await s.setIgnoreWhitespace(false);
    expect(b.calls.at(-1)!.method).toBe('ReviewService.FilePatchWith'); // the plain patch came from the cache
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
  const TWO_HUNKS = '--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -20 +20,2 @@\n c\n+d\n';

  it('chooses files and hunks for a hunk-level accept', async () => {
    const s = new ReviewStore(reviewBackend(DONE.id, 3), DONE.id);
    await s.load();
    s.selected = 'x.go';
    s.patch = { path: 'x.go', patch: TWO_HUNKS, binary: false, too_large: false, bytes: TWO_HUNKS.length };
    expect(s.selection).toEqual([]);
    s.pickHunk(s.hunks[1]);
    expect(s.selection).toEqual([{ file: 'x.go', hunks: [2] }]);
    expect(s.picked('x.go', s.hunks[1])).toBe(true);
    expect(s.picked('x.go', s.hunks[0])).toBe(false);
    s.pickHunk(s.hunks[0]);
    expect(s.selection).toEqual([{ file: 'x.go' }]); // every hunk: the whole file
    s.pickHunk(s.hunks[1]);
    expect(s.selection).toEqual([{ file: 'x.go', hunks: [1] }]);
    s.pickFile('go.mod');
    expect(s.selection).toEqual([{ file: 'x.go', hunks: [1] }, { file: 'go.mod' }]);
    s.pickFile('go.mod');
    s.pickHunk(s.hunks[0]);
    expect(s.selection).toEqual([]);
  });

  it('moves between hunks with n/p within the file', async () => {
    const s = new ReviewStore(reviewBackend(DONE.id, 3), DONE.id);
    await s.load();
    s.patch = { path: 'x.go', patch: TWO_HUNKS, binary: false, too_large: false, bytes: TWO_HUNKS.length };
    expect(s.hunks.map((h) => h.newStart)).toEqual([1, 20]);
    expect(s.stepHunk(1)!.index).toBe(1);
    expect(s.stepHunk(1)!.index).toBe(1);
    expect(s.stepHunk(-5)!.index).toBe(0);
    s.patch = { path: 'y.bin', patch: '', binary: true, too_large: false, bytes: 9 };
    expect(s.stepHunk(1)).toBeUndefined();
  });

  it('builds the request from hunk comments and drops and sends it', async () => {
    const b = reviewBackend(DONE.id, 3);
    b.on('ReviewService.RequestChanges', () => ({ request: 1, fix: 1, body: '## Human review' }));
    const id = DONE.id;
    const s = new ReviewStore(b, id);
    await s.load();
    const first = s.summary!.files[0].path;
    const [h] = s.hunks;
    s.comment(h, 'Keep the old name as an alias');
    s.toggleDrop(h);
    s.patch = { path: 'x.go', patch: TWO_HUNKS, binary: false, too_large: false, bytes: TWO_HUNKS.length };
    s.toggleDrop(s.hunks[1]);
    s.comment(s.hunks[0], 'typed then cleared');
    s.comment(s.hunks[0], '  ');
    s.general = ' Good start ';
    expect(s.request).toEqual({
      general: 'Good start',
      comments: [{ file: first, line: h.newStart, hunk: h.text, text: 'Keep the old name as an alias' }],
      drops: [
        { file: first, hunk: h.text },
        { file: 'x.go', hunk: '@@ -20 +20,2 @@\n c\n+d\n' },
      ],
    });
    expect(Object.keys(s.choices)).toHaveLength(2);
    const want = JSON.parse(JSON.stringify(s.request));
    expect(await s.requestChanges()).toBe(true);
    expect(b.argsOf('ReviewService.RequestChanges')).toEqual([[id, want]]);
    expect(s.choices).toEqual({});
    expect(s.notice).toBe('Fix run 1 queued: the developer gets your 1 comments and general comment, after 2 dropped hunks are reverted.');
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

import { describe, expect, it } from 'vitest';
import { FakeBackend } from '../backend/fake';
import { ReviewStore, patchLines } from './review.svelte';

const byTitle = (b: FakeBackend, title: string) => [...b.tasks.values()].find((t) => t.title === title)!.id;

describe('patchLines', () => {
  it('types each line', () => {
    expect(patchLines('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n c\n').map((l) => l.kind)).toEqual(['meta', 'meta', 'hunk', 'del', 'add', 'ctx']);
  });
});

describe('ReviewStore', () => {
  it('loads 5000 files from the summary and one patch on demand', async () => {
    const b = new FakeBackend();
    const s = new ReviewStore(b, byTitle(b, 'Rename the module path'));
    await s.load();
    expect(s.summary!.files).toHaveLength(5000);
    expect(b.calls.filter((c) => c.method === 'ReviewService.FilePatch')).toHaveLength(1);
    expect(s.patch!.path).toBe(s.summary!.files[0].path);
    s.step(1);
    await Promise.resolve();
    await Promise.resolve();
    expect(s.selected).toBe(s.summary!.files[1].path);
    s.step(-5);
    expect(s.selected).toBe(s.summary!.files[0].path);
    const n = b.calls.length;
    await s.select(s.summary!.files[0].path);
    expect(b.calls.length).toBe(n); // cached
  });

  it('shows a large patch only when asked', async () => {
    const b = new FakeBackend();
    const s = new ReviewStore(b, byTitle(b, 'Rename the module path'));
    await s.load();
    const big = s.summary!.files.find((f) => f.additions > 110 && !f.binary)!;
    await s.select(big.path);
    expect(s.patch!.too_large).toBe(true);
    await s.select(big.path, true);
    expect(s.patch!.too_large).toBe(false);
    expect(s.patch!.patch).toContain('+++ b/');
  });

  it('explains a task without a branch', async () => {
    const b = new FakeBackend();
    const s = new ReviewStore(b, byTitle(b, 'Document the CLI'));
    await s.load();
    expect(s.error).toMatch(/has no branch yet/);
  });
});

describe('ReviewStore tabs', () => {
  it('switches to leftovers and commits', async () => {
    const b = new FakeBackend();
    const s = new ReviewStore(b, byTitle(b, 'Rename the module path'));
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
    const b = new FakeBackend();
    const s = new ReviewStore(b, byTitle(b, 'Rename the module path'));
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
    const b = new FakeBackend();
    let id = '';
    for (const t of b.tasks.values()) {
      const d = await b.invoke('TaskService.Get', t.id);
      if (d.reports.some((r) => r.role === 'reviewer') && d.reports.some((r) => r.role !== 'reviewer' && r.role !== 'observer')) id = t.id;
    }
    expect(id).not.toBe('');
    const s = new ReviewStore(b, id);
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
    const b = new FakeBackend();
    const s = new ReviewStore(b, byTitle(b, 'Refactor settings loader'));
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
    const b = new FakeBackend();
    const s = new ReviewStore(b, byTitle(b, 'Refactor settings loader'));
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
    const b = new FakeBackend();
    const id = byTitle(b, 'Refactor settings loader');
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
    const sent = b.calls.find((c) => c.method === 'ReviewService.RequestChanges')!;
    expect(sent.args).toEqual([id, want]);
    expect(b.tasks.get(id)!.status).toBe('pending');
    expect(s.choices).toEqual({});
    expect(s.notice).toBe('Fix run 1 queued: the developer gets your 1 comments and general comment, after 2 dropped hunks are reverted.');
  });

  it('refuses an empty request without calling the backend', async () => {
    const b = new FakeBackend();
    const s = new ReviewStore(b, byTitle(b, 'Refactor settings loader'));
    await s.load();
    expect(await s.requestChanges()).toBe(false);
    expect(s.error).toMatch(/Write a comment/);
    expect(b.calls.some((c) => c.method === 'ReviewService.RequestChanges')).toBe(false);
  });

  it('rejects deleting exactly the confirmed branches', async () => {
    const b = new FakeBackend();
    const id = byTitle(b, 'Rename the module path');
    const s = new ReviewStore(b, id);
    const branches = await s.taskBranches();
    expect(branches.map((x) => x.name)).toEqual([b.tasks.get(id)!.branch, `${b.tasks.get(id)!.branch}--leftovers`]);
    expect(await s.rejectDeletingBranches(branches.slice(0, 1))).toBe(false);
    expect(s.error).toContain('Not confirmed');
    expect(b.tasks.get(id)!.status).toBe('done');
    expect(await s.rejectDeletingBranches(branches)).toBe(true);
    expect(b.tasks.get(id)!.status).toBe('rejected');
    expect(s.notice).toContain('Deleted');
  });

  it('rejects a done task, keeping its branch, and not a failed one', async () => {
    const b = new FakeBackend();
    const id = byTitle(b, 'Refactor settings loader');
    const s = new ReviewStore(b, id);
    expect(await s.reject()).toBe(true);
    expect(b.tasks.get(id)!.status).toBe('rejected');
    expect(b.tasks.get(id)!.branch).toBeTruthy();
    const f = new ReviewStore(b, byTitle(b, 'Parse codex usage lines'));
    expect(await f.reject()).toBe(false);
    expect(f.error).toBe('This task has failed and cannot become rejected.');
  });
});

describe('ReviewStore undo accept', () => {
  it('undoes the accept of an accepted task', async () => {
    const b = new FakeBackend();
    const id = byTitle(b, 'Refactor settings loader');
    const s = new ReviewStore(b, id);
    expect(await s.undoAccept()).toBe(false);
    expect(s.error).toMatch(/has no accept to undo/);
    await b.invoke('ReviewService.Accept', id, { target: '', strategy: 'rebase', message: '', include_leftovers: false, expect_target: '' });
    expect(b.tasks.get(id)!.status).toBe('accepted');
    expect(await s.undoAccept()).toBe(true);
    expect(b.tasks.get(id)!.status).toBe('done');
    expect(s.notice).toMatch(/Accept undone/);
  });
});

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
});

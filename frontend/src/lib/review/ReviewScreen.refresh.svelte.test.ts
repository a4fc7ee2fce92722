import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { StubBackend } from '../backend/stub';
import { demo } from '../backend/stub-data';
import type { DiffSummary, TaskView } from '../backend/types';
import ReviewScreen from './ReviewScreen.svelte';

// The props are one $state, changed in place as App changes them: a rerender would set every
// prop again (the backend too), which makes a new store and would hide what this tests.
const summary = (id: string, n: number): DiffSummary => ({
  task_id: id,
  base: 'main',
  head: `head${n}`,
  files: Array.from({ length: n }, (_, i) => ({ path: `pkg/f${i}.go`, change: 'modified' as const, additions: 2, deletions: 1, binary: false })),
});

describe('ReviewScreen after a fix run', () => {
  it('reads the changes again when a run of the task picked ends, the task still picked', async () => {
    const t: TaskView = { ...demo('Refactor settings loader'), finished_at: '2026-12-05T10:00:00Z' };
    let files = 4;
    const b = new StubBackend({
      'ReviewService.Summary': () => summary(t.id, files),
      'ReviewService.FilePatch': (_id, path) => ({ path, patch: `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-a\n+b\n`, binary: false, too_large: false, bytes: 40 }),
      'ForgeService.PullRequest': () => null as never,
      'MergeQueueService.List': () => [],
    });
    const props = $state({ backend: b, tasks: [t], taskId: t.id, onpick: () => {} });
    render(ReviewScreen, { props });
    const bar = () => screen.getByRole('heading', { name: 'Review' }).parentElement!.textContent ?? '';
    await waitFor(() => expect(bar()).toContain('4 files'));
    const loads = b.count('ReviewService.Summary');

    // The fix run: claimed (finished_at cleared, ongoing), then done again with one more file.
    props.tasks = [{ ...t, status: 'ongoing', finished_at: undefined }];
    flushSync();
    files = 5;
    props.tasks = [{ ...t, finished_at: '2026-12-05T10:05:00Z' }];
    flushSync();
    await waitFor(() => expect(bar()).toContain('5 files'));
    expect(b.count('ReviewService.Summary')).toBe(loads + 1);

    // Another change of the same result (a label) reads nothing again.
    props.tasks = [{ ...t, finished_at: '2026-12-05T10:05:00Z', labels: ['ui'] }];
    flushSync();
    await new Promise((r) => setTimeout(r, 20));
    expect(b.count('ReviewService.Summary')).toBe(loads + 1);
  });
});

import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { StubBackend } from '../backend/stub';
import { demo } from '../backend/stub-data';
import type { DiffSummary, TaskView } from '../backend/types';
import ReviewScreen from './ReviewScreen.svelte';

const summary = (id: string, n: number, prefix: string): DiffSummary => ({
  task_id: id,
  base: 'main',
  head: 'feedc0de',
  files: Array.from({ length: n }, (_, i) => ({ path: `${prefix}/f${i}.go`, change: 'modified' as const, additions: 2, deletions: 1, binary: false })),
});

function backend(t: TaskView): StubBackend {
  const changes = summary(t.id, 4, 'pkg');
  const leftovers = summary(t.id, 1, 'scratch');
  const patch = (path: string) => ({ path, patch: `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-a\n+b\n`, binary: false, too_large: false, bytes: 40 });
  return new StubBackend({
    'ReviewService.Summary': () => changes,
    'ReviewService.LeftoversSummary': () => leftovers,
    'ReviewService.FilePatch': (_id, path) => patch(path),
    'ReviewService.LeftoversFilePatch': (_id, path) => patch(path),
    'ReviewService.Commits': () => [],
    'TaskService.Get': () => ({ ...t, reports: [] }) as never,
    'ForgeService.PullRequest': () => null as never,
    'MergeQueueService.List': () => [],
  });
}

describe('ReviewScreen', () => {
  it('keeps the task in the picker while a fix run goes (it is ongoing again)', async () => {
    const t: TaskView = { ...demo('Refactor settings loader'), status: 'ongoing' };
    render(ReviewScreen, { backend: backend(t), tasks: [t], taskId: t.id, onpick: () => {} });
    const pick = screen.getByRole('combobox', { name: 'Task to review' }) as HTMLSelectElement;
    expect(pick.value).toBe(t.id);
    expect(pick.selectedOptions[0].textContent).toContain('(ongoing)');
  });

  it("names the task branch's stats on Reports and Commits after Leftovers", async () => {
    const t = demo('Refactor settings loader');
    render(ReviewScreen, { backend: backend(t), tasks: [t], taskId: t.id, onpick: () => {} });
    const bar = () => screen.getByRole('heading', { name: 'Review' }).parentElement!.textContent ?? '';
    await waitFor(() => expect(bar()).toContain('4 files'));
    await fireEvent.click(screen.getByRole('tab', { name: 'Leftovers' }));
    await waitFor(() => expect(bar()).toContain('1 file ·'));
    await fireEvent.click(screen.getByRole('tab', { name: 'Reports' }));
    await waitFor(() => expect(bar()).toContain('4 files'));
    await fireEvent.click(screen.getByRole('tab', { name: 'Leftovers' }));
    await waitFor(() => expect(bar()).toContain('1 file ·'));
    await fireEvent.click(screen.getByRole('tab', { name: 'Commits' }));
    await waitFor(() => expect(bar()).toContain('4 files'));
  });

  it('says nothing waits in the one empty-state look', () => {
    render(ReviewScreen, { backend: new StubBackend(), tasks: [], taskId: null, onpick: () => {} });
    const empty = screen.getByRole('status');
    expect(empty.classList.contains('empty')).toBe(true);
    expect(empty.querySelector('.title')?.textContent).toBe('Nothing is waiting for review.');
  });
});

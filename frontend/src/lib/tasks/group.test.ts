import { describe, expect, it } from 'vitest';
import type { TaskView } from '../backend/types';
import { ago, countByStatus, displayTitle, groupTasks, moveInQueue, parseLabels } from './group';

function task(id: string, over: Partial<TaskView> = {}): TaskView {
  return {
    id, title: id, prompt: 'p', status: 'pending', priority: 0, position: 0, skip: false, labels: [], runs: 1, completed_runs: 0,
    base: '', repo: '/r', created_at: '2026-11-01T00:00:00Z', updated_at: '2026-11-01T00:00:00Z', ...over,
  };
}

describe('groupTasks', () => {
  it('orders groups by attention and leaves empty ones out', () => {
    const g = groupTasks([task('a', { status: 'done' }), task('b', { status: 'ongoing' }), task('c')]);
    expect(g.map((x) => x.status)).toEqual(['ongoing', 'pending', 'done']);
  });
  it('sorts non-queue groups newest activity first', () => {
    const g = groupTasks([
      task('old', { status: 'done', updated_at: '2026-11-01T00:00:00Z' }),
      task('new', { status: 'done', updated_at: '2026-11-02T00:00:00Z' }),
    ]);
    expect(g[0].tasks.map((t) => t.id)).toEqual(['new', 'old']);
  });
  it('sorts the queue by priority, then position, then age', () => {
    const g = groupTasks([
      task('low', { priority: 0, position: 0 }),
      task('second', { priority: 1, position: 2 }),
      task('first', { priority: 1, position: 1 }),
      task('older', { priority: 0, position: 0, created_at: '2026-10-01T00:00:00Z' }),
    ]);
    expect(g[0].tasks.map((t) => t.id)).toEqual(['first', 'second', 'older', 'low']);
  });
  it("breaks ties by id in the store's order (code units, as SQLite and Go compare), not the locale's", () => {
    // The locale puts 'a' before 'B'; the store's ORDER BY ... id puts 'B' first.
    const g = groupTasks([task('a1'), task('B2'), task('a3', { status: 'done' }), task('B4', { status: 'done' })]);
    expect(g.find((x) => x.status === 'pending')!.tasks.map((t) => t.id)).toEqual(['B2', 'a1']);
    expect(g.find((x) => x.status === 'done')!.tasks.map((t) => t.id)).toEqual(['a3', 'B4']);
  });
});

describe('moveInQueue', () => {
  const q = [task('a', { priority: 2 }), task('b', { priority: 1 }), task('c', { priority: 1 }), task('d', { priority: 0 })];
  it('moves within equal priority without changing it', () => {
    expect(moveInQueue(q, 'c', 1)).toEqual({ ids: ['a', 'c', 'b', 'd'], priority: undefined });
  });
  it('raises the priority when dropped above a higher one', () => {
    expect(moveInQueue(q, 'd', 0)).toEqual({ ids: ['d', 'a', 'b', 'c'], priority: 2 });
  });
  it('lowers the priority when dropped below a lower one', () => {
    expect(moveInQueue(q, 'a', 3)).toEqual({ ids: ['b', 'c', 'd', 'a'], priority: 0 });
  });
  it('clamps the index and ignores unknown ids', () => {
    expect(moveInQueue(q, 'b', -5).ids[0]).toBe('b');
    expect(moveInQueue(q, 'zzz', 0)).toEqual({ ids: ['a', 'b', 'c', 'd'] });
  });
});

describe('helpers', () => {
  it('displayTitle falls back to the first prompt line', () => {
    expect(displayTitle({ title: '  ', prompt: 'Fix it\nmore' })).toBe('Fix it');
    expect(displayTitle({ title: 'T', prompt: 'x' })).toBe('T');
    expect(displayTitle({ title: '', prompt: 'x'.repeat(100) })).toHaveLength(80);
  });
  it('parseLabels trims and removes duplicates', () => {
    expect(parseLabels(' ui, docs,,ui ')).toEqual(['ui', 'docs']);
  });
  it('countByStatus counts every status', () => {
    const c = countByStatus([task('a'), task('b'), task('c', { status: 'failed' })]);
    expect(c.pending).toBe(2);
    expect(c.failed).toBe(1);
    expect(c.done).toBe(0);
  });
  it('ago is relative to now', () => {
    const now = new Date('2026-11-30T12:00:00Z');
    expect(ago('2026-11-30T11:59:50Z', now)).toBe('just now');
    expect(ago('2026-11-30T11:50:00Z', now)).toBe('10 min ago');
    expect(ago('2026-11-30T09:00:00Z', now)).toBe('3 h ago');
    expect(ago('2026-11-28T12:00:00Z', now)).toBe('2 d ago');
  });
});

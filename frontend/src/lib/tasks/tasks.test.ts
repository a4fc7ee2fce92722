import { describe, expect, it } from 'vitest';
import type { Backend } from '../backend/backend';
import { StubBackend } from '../backend/stub';
import { DEMO, listDemo, taskView } from '../backend/stub-data';
import { callError, notFoundError } from '../backend/goldens';
import type { TaskView } from '../backend/types';
import { TaskStore } from './tasks.svelte';

describe('TaskStore', () => {
  it('loads every non-archived task and counts them by status', async () => {
    const b = new StubBackend({ 'TaskService.List': listDemo });
    const s = new TaskStore(b);
    await s.load();
    expect(b.argsOf('TaskService.List')).toEqual([[{ status: '', search: '', label: '' }]]);
    expect(s.tasks.length).toBe(10);
    expect(s.counts.pending).toBe(3);
    expect(s.groups[0].status).toBe('ongoing');
    expect(s.tasks.some((t) => t.status === 'archived')).toBe(false);
  });

  it('shows a created task at once and reloads on tasks:changed', async () => {
    let listed: TaskView[] = [];
    const b = new StubBackend({
      'TaskService.List': () => listed,
      'TaskService.Create': (input) => (listed = [taskView({ id: 'n1', prompt: input.prompt })])[0],
    });
    const s = new TaskStore(b);
    const off = s.subscribe();
    await s.load();
    const t = await s.create({ title: '', prompt: 'Write docs', priority: 0, base: '', labels: [], runs: 1 });
    expect(s.tasks.map((x) => x.id)).toContain(t.id);
    expect(t.status).toBe('pending');
    off();
    expect(b.listenerCount('tasks:changed')).toBe(0);
  });

  it('coalesces a burst of change hints into one reload', async () => {
    const b = new StubBackend({ 'TaskService.List': listDemo });
    const s = new TaskStore(b);
    const off = s.subscribe();
    for (let i = 0; i < 50; i++) b.emit('tasks:changed');
    await new Promise((r) => setTimeout(r, 60));
    expect(b.count('TaskService.List')).toBe(1);
    expect(s.tasks.length).toBe(10);
    off();
  });

  it('turns a rejected create into a readable error and adds nothing', async () => {
    const refused = callError('create: empty prompt');
    const b = new StubBackend({
      'TaskService.List': () => [],
      'TaskService.Create': () => {
        throw new Error(refused);
      },
    });
    const s = new TaskStore(b);
    await expect(s.create({ title: '', prompt: '  ', priority: 0, base: '', labels: [], runs: 1 })).rejects.toThrow(refused);
    await s.load();
    expect(s.tasks).toHaveLength(0);
  });

  it('shows a load failure as a message', async () => {
    const b = new StubBackend();
    b.failNext('TaskService.List', 'open store: database is locked\ngoroutine 1 [running]:');
    const s = new TaskStore(b);
    await s.load();
    expect(s.error).toBe('Could not load tasks: Open store: database is locked');
  });

  it('ignores a stale answer that arrives after a newer one', async () => {
    const b = new StubBackend({ 'TaskService.List': (f) => (f.search ? DEMO.filter((t) => t.title.includes(f.search!)) : listDemo(f)) });
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    let first = true;
    const slowFirst: Backend = {
      invoke: ((m: never, ...a: never[]) => {
        const p = (b.invoke as (...x: unknown[]) => Promise<unknown>)(m, ...a);
        if (!first) return p;
        first = false;
        return gate.then(() => p);
      }) as Backend['invoke'],
      listen: b.listen.bind(b),
    };
    const s = new TaskStore(slowFirst);
    const slow = s.load();
    s.search = 'go-sqlite3';
    await s.load();
    release();
    await slow;
    expect(s.tasks.map((t) => t.title)).toEqual(['Upgrade go-sqlite3']);
  });

  it('filters by status on the client and archived on the server', async () => {
    const b = new StubBackend({ 'TaskService.List': listDemo });
    const s = new TaskStore(b);
    await s.load();
    s.setFilter({ status: 'failed' });
    expect(s.visible.map((t) => t.status)).toEqual(['failed']);
    expect(b.count('TaskService.List')).toBe(1);
    s.setFilter({ status: 'archived' });
    await s.load();
    expect(b.argsOf('TaskService.List').at(-1)).toEqual([{ status: 'archived', search: '', label: '' }]);
    expect(s.visible.map((t) => t.title)).toEqual(['Old experiment']);
  });

  it('reorders the queue and keeps priority consistent with the drop', async () => {
    // The backend stores the order and the priority it was sent; the next list shows them.
    let order: string[] = [];
    const priorities = new Map<string, number>();
    const b = new StubBackend({
      'TaskService.List': (f) => listDemo(f).map((t) => ({ ...t, priority: priorities.get(t.id) ?? t.priority, position: order.includes(t.id) ? order.indexOf(t.id) : t.position })),
      'TaskService.SetPriority': (id, p) => (priorities.set(id, p), { ...DEMO.find((t) => t.id === id)!, priority: p }),
      'TaskService.Reorder': (ids) => void (order = ids),
    });
    const s = new TaskStore(b);
    await s.load();
    const before = s.queue.map((t) => t.title);
    expect(before[0]).toBe('Fix flaky worktree test'); // priority 2
    const last = s.queue[s.queue.length - 1];
    expect(await s.move(last.id, 0)).toBe(true);
    expect(b.argsOf('TaskService.SetPriority')).toEqual([[last.id, 2]]);
    expect(b.argsOf('TaskService.Reorder')[0][0][0]).toBe(last.id);
    await s.load();
    expect(s.queue[0].id).toBe(last.id);
    expect(s.queue[0].priority).toBe(2);
    expect(b.calls.map((c) => c.method)).toContain('TaskService.Reorder');
  });

  it('toggles skip and rejects a non-integer priority without calling the backend', async () => {
    const b = new StubBackend({ 'TaskService.List': listDemo, 'TaskService.SetSkip': (id, skip) => ({ ...DEMO.find((t) => t.id === id)!, skip }) });
    const s = new TaskStore(b);
    await s.load();
    const id = s.queue[0].id;
    await s.setSkip(id, true);
    expect(s.tasks.find((t) => t.id === id)!.skip).toBe(true);
    const n = b.calls.length;
    expect(await s.setPriority(id, 1.5)).toBe(false);
    expect(s.error).toMatch(/whole number/);
    expect(b.calls.length).toBe(n);
  });

  it("shows the backend's refusal of a skip and reloads the list", async () => {
    // Go refuses a skip of a task that is gone (deleted from another window or the CLI).
    const gone = notFoundError('task', 'nope');
    const b = new StubBackend({
      'TaskService.List': listDemo,
      'TaskService.SetSkip': () => {
        throw new Error(gone);
      },
    });
    const s = new TaskStore(b);
    await s.load();
    expect(await s.setSkip('nope', true)).toBe(false);
    expect(s.error).toBe(gone);
    expect(b.count('TaskService.List')).toBe(2);
  });
});

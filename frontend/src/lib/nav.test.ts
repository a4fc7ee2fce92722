import { describe, expect, it } from 'vitest';
import { StubBackend } from './backend/stub';
import { installNav } from './nav';
import type { UIRequest } from './backend/types';

const settle = (ms = 20) => new Promise((r) => setTimeout(r, ms));

/** A backend whose Ready hands out the requests queued before the first paint. */
const navBackend = (pending: UIRequest[] = []) => new StubBackend({ 'NavService.Ready': () => pending, 'NavService.Shown': () => undefined });

describe('installNav', () => {
  it('applies the request queued before the first paint, then every ui:open, in order, and reports each shown', async () => {
    const b = navBackend([{ seq: 1, view: 'new-task' }]);
    const applied: number[] = [];
    const off = installNav(b, async (r) => {
      await settle(); // a slow apply must not let the next one overtake it
      applied.push(r.seq);
    });
    await settle();
    b.emit('ui:open', { seq: 2, view: 'review', task_id: 't1' });
    b.emit('ui:open', { seq: 3, view: 'actions', task_id: 't2' });
    await settle(150);
    expect(applied).toEqual([1, 2, 3]);
    expect(b.argsOf('NavService.Shown')).toEqual([
      [1, 'new-task'],
      [2, 'review'],
      [3, 'actions'],
    ]);
    expect(b.count('NavService.Ready')).toBe(1);
    off();
    b.emit('ui:open', { seq: 4, view: '' });
    await settle();
    expect(applied).toEqual([1, 2, 3]);
    expect(b.listenerCount('ui:open')).toBe(0);
  });

  it('drops a request older than one already shown (the newest wins)', async () => {
    const b = navBackend();
    const applied: UIRequest[] = [];
    installNav(b, (r) => void applied.push(r));
    b.emit('ui:open', { seq: 7, view: 'review' });
    b.emit('ui:open', { seq: 6, view: 'new-task' });
    await settle();
    expect(applied.map((r) => r.seq)).toEqual([7]);
  });
});

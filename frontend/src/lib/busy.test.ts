import { describe, expect, it } from 'vitest';
import { run } from './busy';

/** A promise settled from outside. */
function later<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const p = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { p, resolve, reject };
}

describe('run', () => {
  it('sets the busy flag during the call, clears the old error and returns the value', async () => {
    const h = { busy: false, error: 'old failure' };
    const d = later<number>();
    const pending = run(h, () => d.p, { flag: 'busy' });
    expect(h.busy).toBe(true);
    d.resolve(42);
    expect(await pending).toEqual({ ok: true, value: 42 });
    expect(h).toEqual({ busy: false, error: '' });
  });

  it('shows one readable line after the prefix on failure and never throws', async () => {
    const h = { busy: false, error: '' };
    const r = await run(h, () => Promise.reject('unknown base ref \'nope\'\ngoroutine 1 [running]:'), { fail: 'Could not save', flag: 'busy' });
    expect(r).toEqual({ ok: false, error: "Could not save: Unknown base ref 'nope'" });
    expect(h).toEqual({ busy: false, error: "Could not save: Unknown base ref 'nope'" });
  });

  it('refuses a second call while the first runs, without calling it', async () => {
    const h = { busy: false, error: '' };
    const d = later<string>();
    const first = run(h, () => d.p, { flag: 'busy' });
    let called = false;
    const second = await run(h, async () => (called = true), { flag: 'busy' });
    expect(second).toEqual({ ok: false, error: '' });
    expect(called).toBe(false);
    d.resolve('done');
    expect(await first).toEqual({ ok: true, value: 'done' });
  });

  it('leaves the busy flag alone when none is named (loads)', async () => {
    const h = { busy: true, error: '' };
    const r = await run(h, async () => 'loaded');
    expect(r).toEqual({ ok: true, value: 'loaded' });
    expect(h.busy).toBe(true);
  });

  it('lets the newest call win under a sequence guard: a stale answer changes nothing', async () => {
    const h = { loading: false, error: '' };
    let seq = 0;
    const slow = later<string>();
    const fast = later<string>();
    const a = ++seq;
    const older = run(h, () => slow.p, { flag: 'loading', current: () => a === seq });
    const b = ++seq;
    const newer = run(h, () => fast.p, { flag: 'loading', current: () => b === seq });
    fast.reject(new Error('disk full'));
    expect(await newer).toEqual({ ok: false, error: 'Disk full' });
    expect(h).toEqual({ loading: false, error: 'Disk full' });
    slow.resolve('stale');
    expect(await older).toEqual({ ok: false, error: '' });
    expect(h).toEqual({ loading: false, error: 'Disk full' });
  });

  it('writes the error into the named field', async () => {
    const h = { error: 'form error', usageError: '' };
    await run(h, () => Promise.reject(new Error('start date is after the end date')), { into: 'usageError' });
    expect(h).toEqual({ error: 'form error', usageError: 'Start date is after the end date' });
  });
});

import { describe, expect, it } from 'vitest';
import { StubBackend } from '../backend/stub';
import { demo } from '../backend/stub-data';
import { targetMoved, transitionError } from '../backend/goldens';
import type { Backend } from '../backend/backend';
import type { AcceptInput, AcceptPlan, AcceptRecord } from '../backend/review-api';
import { AcceptStore } from './accept.svelte';

const DONE = demo('Refactor settings loader');
/** main where the dry run sees it, and where it moved meanwhile: Go's golden case of a moved target. */
const main = targetMoved('main');
const at = '2026-11-30T10:00:00Z';

/** The dry run Go answers for an input: main checked out and clean, release/1.4 conflicting, wip dirty. */
function planFor(input: AcceptInput, mainSha = main.expected): AcceptPlan {
  const target = input.target || 'main';
  const plan: AcceptPlan = {
    strategy: input.strategy,
    target_ref: `refs/heads/${target}`,
    target_sha: target === 'main' ? mainSha : 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
    task_ref: `refs/heads/${DONE.branch}`,
    task_head: 'feedc0de00000000000000000000000000000000',
    head: 'feedc0de00000000000000000000000000000000',
    commits: input.include_leftovers ? ['9b8e771', '5d1c2a0', 'c0ffee1'] : ['9b8e771', '5d1c2a0'],
    fast_forward: false,
    ...(input.include_leftovers ? { leftovers: `refs/heads/${DONE.branch}--leftovers` } : {}),
  };
  if (target === 'main') plan.checkout = '/home/me/project';
  if (target === 'release/1.4') plan.conflicts = ['go.mod', 'internal/config/config.go'];
  if (target === 'wip') Object.assign(plan, { checkout: '/home/me/project-wip', dirty: ['README.md', 'cmd/boof/main.go'] });
  return plan;
}

const record = (input: AcceptInput, newSha: string): AcceptRecord => ({
  strategy: input.strategy,
  target: 'refs/heads/main',
  old_sha: input.expect_target,
  new_sha: newSha,
  task_head: 'feedc0de00000000000000000000000000000000',
  at,
  ...(input.only ? { only: input.only } : {}),
});

/** A backend for the done task: dry runs as planFor, accepts that record what they were sent. */
function reviewBackend() {
  return new StubBackend({
    'ReviewService.PlanAccept': (_id, input) => planFor(input),
    'ReviewService.Accept': (_id, input) => record(input, '0123456789abcdef0123456789abcdef01234567'),
    'ReviewService.UndoAccept': () => undefined,
  });
}

describe('AcceptStore dry run', () => {
  it('plans on open, prefills the default target and refreshes on every change', async () => {
    const b = reviewBackend();
    const s = new AcceptStore(b, DONE.id);
    await s.refresh();
    expect(s.target).toBe('main');
    expect(s.plan!.target_ref).toBe('refs/heads/main');
    expect(s.plan!.commits).toHaveLength(2);
    expect(s.plan!.checkout).toBe('/home/me/project');
    expect(s.blocked).toBe('');
    expect(b.calls.at(-1)!.args[1]).toEqual({ target: '', strategy: 'merge', message: '', include_leftovers: false, expect_target: '' });

    s.includeLeftovers = true;
    s.strategy = 'squash';
    s.message = 'Split the settings loader';
    await s.refresh();
    expect(b.calls.at(-1)!.args[1]).toEqual({ target: 'main', strategy: 'squash', message: 'Split the settings loader', include_leftovers: true, expect_target: '' });
    expect(s.plan!.commits).toHaveLength(3);
    expect(s.plan!.leftovers).toBeTruthy();
  });

  it('lists conflicts and dirty files and blocks the accept', async () => {
    const b = reviewBackend();
    const s = new AcceptStore(b, DONE.id);
    s.target = 'release/1.4';
    await s.refresh();
    expect(s.plan!.conflicts).toEqual(['go.mod', 'internal/config/config.go']);
    expect(s.blocked).toMatch(/conflict/);
    expect(await s.accept()).toBe(false);
    s.target = 'wip';
    await s.refresh();
    expect(s.plan!.dirty).toEqual(['README.md', 'cmd/boof/main.go']);
    expect(s.blocked).toMatch(/uncommitted/);
    expect(await s.accept()).toBe(false);
    expect(b.count('ReviewService.Accept')).toBe(0);
  });

  it('shows the error of a bad target and has no plan', async () => {
    const b = reviewBackend();
    b.on('ReviewService.PlanAccept', (_id, input) => {
      if (input.target === 'nope') throw new Error('Target branch does not exist: nope');
      return planFor(input);
    });
    const s = new AcceptStore(b, DONE.id);
    s.target = 'nope';
    await s.refresh();
    expect(s.plan).toBeNull();
    expect(s.error).toBe('Target branch does not exist: nope');
    expect(s.blocked).toBe(s.error);
  });

  it('keeps the newest plan when an older dry run answers last', async () => {
    const b = reviewBackend();
    const held: (() => void)[] = [];
    const slow: Backend = {
      listen: (e, h) => b.listen(e, h),
      invoke: ((m: string, ...a: unknown[]) => {
        const p = (b.invoke as (m: string, ...a: unknown[]) => Promise<unknown>)(m, ...a);
        return held.length === 0 ? new Promise<unknown>((r) => held.push(() => r(p))) : p;
      }) as Backend['invoke'],
    };
    const s = new AcceptStore(slow, DONE.id);
    s.target = 'main';
    const first = s.refresh();
    s.target = 'release/1.4';
    await s.refresh();
    held[0]();
    await first;
    expect((s.plan as AcceptPlan).target_ref).toBe('refs/heads/release/1.4');
    expect(s.planning).toBe(false);
  });

  it('refuses a failed task', async () => {
    const failed = demo('Parse codex usage lines');
    const refused = transitionError('failed', 'accepted');
    const b = new StubBackend({
      'ReviewService.PlanAccept': () => {
        throw new Error(refused);
      },
    });
    const s = new AcceptStore(b, failed.id);
    await s.refresh();
    expect(s.plan).toBeNull();
    expect(s.error).toBe(refused);
  });
});

describe('AcceptStore accept and undo', () => {
  it('accepts with the sha the dry run saw, then undoes', async () => {
    const b = reviewBackend();
    const s = new AcceptStore(b, DONE.id);
    await s.refresh();
    const seen = s.plan!.target_sha;
    expect(await s.accept()).toBe(true);
    const call = b.calls.find((c) => c.method === 'ReviewService.Accept')!;
    expect((call.args[1] as { expect_target: string }).expect_target).toBe(seen);
    expect(s.result!.old_sha).toBe(seen);
    expect(s.result!.new_sha).not.toBe(seen);

    expect(await s.undo()).toBe(true);
    expect(s.undone).toBe(true);
    expect(b.argsOf('ReviewService.UndoAccept')).toEqual([[DONE.id]]);
    const again = new AcceptStore(b, s.taskId);
    await again.refresh();
    expect(again.plan!.target_sha).toBe(seen);
  });

  it('changes nothing when the target moved after the dry run, and plans again', async () => {
    const b = reviewBackend();
    const s = new AcceptStore(b, DONE.id);
    await s.refresh();
    const seen = s.plan!.target_sha;
    // main moves (another commit lands): Go refuses the accept the old dry run was for, and plans on the new tip.
    const moved = main.actual;
    b.on('ReviewService.PlanAccept', (_id, input) => planFor(input, moved)).on('ReviewService.Accept', (_id, input) => {
      if (input.expect_target !== moved) throw new Error(main.message);
      return record(input, '0123456789abcdef0123456789abcdef01234567');
    });
    expect(await s.accept()).toBe(false);
    expect(seen).toBe(main.expected);
    expect(s.error).toBe(main.message);
    expect(s.error).toContain(`expected ${seen.slice(0, 12)}, now ${moved.slice(0, 12)}`);
    expect(s.result).toBeNull();
    expect(s.plan!.target_sha).toBe(moved);
    expect(await s.accept()).toBe(true);
  });

  it('refuses the undo when the target moved on', async () => {
    const b = reviewBackend();
    // The accept moved main to the golden's expected commit; then main moved on to its actual one.
    b.on('ReviewService.Accept', (_id, input) => record(input, main.expected)).on('ReviewService.UndoAccept', () => {
      throw new Error(main.message);
    });
    const s = new AcceptStore(b, DONE.id);
    await s.refresh();
    await s.accept();
    const accepted = s.result!.new_sha;
    expect(await s.undo()).toBe(false);
    expect(accepted).toBe(main.expected);
    expect(s.error).toBe(main.message);
    expect(s.error).toContain(accepted.slice(0, 12));
    expect(s.undone).toBe(false);
  });

  it('accepts only the chosen hunks as one squash commit', async () => {
    const b = reviewBackend();
    const only = [{ file: 'x.go', hunks: [2] }, { file: 'go.mod' }];
    const s = new AcceptStore(b, DONE.id, only, 'feedc0de');
    expect(s.strategy).toBe('squash');
    await s.refresh();
    expect(await s.accept()).toBe(true);
    const call = b.calls.find((c) => c.method === 'ReviewService.Accept')!;
    expect(call.args[1]).toMatchObject({ strategy: 'squash', include_leftovers: false, only, expect_head: 'feedc0de' });
    expect(s.result!.only).toEqual(only);
    const merge = new AcceptStore(b, DONE.id);
    merge.strategy = 'merge';
    await merge.refresh();
    expect(b.calls.at(-1)!.args[1]).not.toHaveProperty('only');
  });

  it('sends a conflicting task back to the developer to resolve', async () => {
    const b = reviewBackend();
    b.on('ReviewService.RequestChanges', (_id, req) => ({ request: 1, fix: 1, body: req.general }));
    const s = new AcceptStore(b, DONE.id);
    s.target = 'release/1.4';
    await s.refresh();
    expect(await s.resolveWithAgent()).toBe(true);
    const sent = b.calls.find((c) => c.method === 'ReviewService.RequestChanges')!;
    const general = (sent.args[1] as { general: string }).general;
    expect(general).toContain('Merge release/1.4');
    expect(general).toContain('go.mod, internal/config/config.go');
  });
});

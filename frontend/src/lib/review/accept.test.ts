import { describe, expect, it } from 'vitest';
import { FakeBackend } from '../backend/fake';
import { moveFakeBranch } from '../backend/fake-review';
import type { Backend } from '../backend/backend';
import type { AcceptPlan } from '../backend/review-api';
import { AcceptStore } from './accept.svelte';

const byTitle = (b: FakeBackend, title: string) => [...b.tasks.values()].find((t) => t.title === title)!.id;
const DONE = 'Refactor settings loader';

describe('AcceptStore dry run', () => {
  it('plans on open, prefills the default target and refreshes on every change', async () => {
    const b = new FakeBackend();
    const s = new AcceptStore(b, byTitle(b, DONE));
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
    const b = new FakeBackend();
    const s = new AcceptStore(b, byTitle(b, DONE));
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
    expect(b.calls.filter((c) => c.method === 'ReviewService.Accept')).toHaveLength(0);
    expect(b.tasks.get(s.taskId)!.status).toBe('done');
  });

  it('shows the error of a bad target and has no plan', async () => {
    const b = new FakeBackend();
    const s = new AcceptStore(b, byTitle(b, DONE));
    s.target = 'nope';
    await s.refresh();
    expect(s.plan).toBeNull();
    expect(s.error).toBe('Target branch does not exist: nope');
    expect(s.blocked).toBe(s.error);
  });

  it('keeps the newest plan when an older dry run answers last', async () => {
    const b = new FakeBackend();
    const id = byTitle(b, DONE);
    const held: (() => void)[] = [];
    const slow: Backend = {
      listen: (e, h) => b.listen(e, h),
      invoke: ((m: string, ...a: unknown[]) => {
        const p = (b.invoke as (m: string, ...a: unknown[]) => Promise<unknown>)(m, ...a);
        return held.length === 0 ? new Promise<unknown>((r) => held.push(() => r(p))) : p;
      }) as Backend['invoke'],
    };
    const s = new AcceptStore(slow, id);
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
    const b = new FakeBackend();
    const s = new AcceptStore(b, byTitle(b, 'Parse codex usage lines'));
    await s.refresh();
    expect(s.plan).toBeNull();
    expect(s.error).toBe('This task has failed and cannot become accepted.');
  });
});

describe('AcceptStore accept and undo', () => {
  it('accepts with the sha the dry run saw, then undoes', async () => {
    const b = new FakeBackend();
    const s = new AcceptStore(b, byTitle(b, DONE));
    await s.refresh();
    const seen = s.plan!.target_sha;
    expect(await s.accept()).toBe(true);
    const call = b.calls.find((c) => c.method === 'ReviewService.Accept')!;
    expect((call.args[1] as { expect_target: string }).expect_target).toBe(seen);
    expect(s.result!.old_sha).toBe(seen);
    expect(s.result!.new_sha).not.toBe(seen);
    expect(b.tasks.get(s.taskId)!.status).toBe('accepted');

    expect(await s.undo()).toBe(true);
    expect(s.undone).toBe(true);
    expect(b.tasks.get(s.taskId)!.status).toBe('done');
    const again = new AcceptStore(b, s.taskId);
    await again.refresh();
    expect(again.plan!.target_sha).toBe(seen);
  });

  it('changes nothing when the target moved after the dry run, and plans again', async () => {
    const b = new FakeBackend();
    const s = new AcceptStore(b, byTitle(b, DONE));
    await s.refresh();
    const seen = s.plan!.target_sha;
    const moved = moveFakeBranch(b, 'main');
    expect(await s.accept()).toBe(false);
    expect(s.error).toBe(`Nothing changed: branch main moved meanwhile (expected ${seen.slice(0, 12)}, now ${moved.slice(0, 12)}); try again.`);
    expect(b.tasks.get(s.taskId)!.status).toBe('done');
    expect(s.plan!.target_sha).toBe(moved);
    expect(await s.accept()).toBe(true);
  });

  it('refuses the undo when the target moved on', async () => {
    const b = new FakeBackend();
    const s = new AcceptStore(b, byTitle(b, DONE));
    await s.refresh();
    await s.accept();
    const accepted = s.result!.new_sha;
    const moved = moveFakeBranch(b, 'main');
    expect(await s.undo()).toBe(false);
    expect(s.error).toBe(`Nothing changed: branch main moved meanwhile (expected ${accepted.slice(0, 12)}, now ${moved.slice(0, 12)}); try again.`);
    expect(s.undone).toBe(false);
    expect(b.tasks.get(s.taskId)!.status).toBe('accepted');
  });

  it('accepts only the chosen hunks as one squash commit', async () => {
    const b = new FakeBackend();
    const id = byTitle(b, DONE);
    const only = [{ file: 'x.go', hunks: [2] }, { file: 'go.mod' }];
    const s = new AcceptStore(b, id, only, 'feedc0de');
    expect(s.strategy).toBe('squash');
    await s.refresh();
    expect(await s.accept()).toBe(true);
    const call = b.calls.find((c) => c.method === 'ReviewService.Accept')!;
    expect(call.args[1]).toMatchObject({ strategy: 'squash', include_leftovers: false, only, expect_head: 'feedc0de' });
    expect(s.result!.only).toEqual(only);
    const merge = new AcceptStore(b, id);
    merge.strategy = 'merge';
    await merge.refresh();
    expect(b.calls.at(-1)!.args[1]).not.toHaveProperty('only');
  });

  it('sends a conflicting task back to the developer to resolve', async () => {
    const b = new FakeBackend();
    const s = new AcceptStore(b, byTitle(b, DONE));
    s.target = 'release/1.4';
    await s.refresh();
    expect(await s.resolveWithAgent()).toBe(true);
    const t = b.tasks.get(s.taskId)!;
    expect(t.status).toBe('pending');
    const sent = b.calls.find((c) => c.method === 'ReviewService.RequestChanges')!;
    const general = (sent.args[1] as { general: string }).general;
    expect(general).toContain('Merge release/1.4');
    expect(general).toContain('go.mod, internal/config/config.go');
  });
});

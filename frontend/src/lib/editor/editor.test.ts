import { describe, expect, it } from 'vitest';
import { StubBackend } from '../backend/stub';
import { demo, detailOf, viewOf } from '../backend/stub-data';
import { notFoundError, statusError, transitionError } from '../backend/goldens';
import { EditorStore, groupReports, toUpdate, draftOf } from './editor.svelte';
import type { Report, TaskDetail } from '../backend/types';

const at = '2026-11-30T08:00:00Z';

/**
 * A backend holding one task: Get answers it as it is now, and the test's
 * answers may change it as Go would (a retry makes it pending, ...).
 */
function holding(d: TaskDetail) {
  const held = { task: d };
  const b = new StubBackend({ 'TaskService.Get': () => held.task });
  const change = (over: Partial<TaskDetail>) => {
    held.task = { ...held.task, ...over };
    return viewOf(held.task);
  };
  return { b, held, change };
}

describe('groupReports', () => {
  it('orders by iteration, pipeline role, then round', () => {
    const r = (role: Report['role'], round: number, iteration: number): Report => ({ role, round, iteration, body: '', created_at: '' });
    const g = groupReports([r('reviewer', 1, 2), r('observer', 2, 1), r('planner', 1, 1), r('observer', 1, 1)]);
    expect(g.map((x) => `${x.iteration}:${x.role}:${x.reports.map((y) => y.round).join(',')}`)).toEqual(['1:planner:1', '1:observer:1,2', '2:reviewer:1']);
  });
  it('puts the verification runs between the developer and the observer', () => {
    const r = (role: Report['role'], round: number): Report => ({ role, round, iteration: 1, body: '', created_at: '' });
    const g = groupReports([r('reviewer', 1), r('verify', 2), r('developer', 1), r('observer', 1), r('verify', 1)]);
    expect(g.map((x) => `${x.role}:${x.reports.map((y) => y.round).join(',')}`)).toEqual(['developer:1', 'verify:1,2', 'observer:1', 'reviewer:1']);
  });
});

describe('toUpdate', () => {
  it('validates and converts the draft', () => {
    const d = draftOf(detailOf(demo('Document the CLI')));
    expect(toUpdate({ ...d, prompt: ' ' })).toMatch(/prompt/);
    expect(toUpdate({ ...d, runs: '0' })).toMatch(/Runs/);
    expect(toUpdate({ ...d, priority: 'high' })).toMatch(/Priority/);
    d.tools.observer = { tool: 'codex', model: '' };
    const u = toUpdate({ ...d, labels: 'a, b', priority: '-1' });
    expect(u).toMatchObject({ labels: ['a', 'b'], priority: -1, tools: { observer: { tool: 'codex', model: '' } } });
    expect(Object.keys((u as { tools: object }).tools)).toEqual(['observer']);
  });
});

describe('EditorStore', () => {
  it('saves edits and keeps unsaved edits across a change hint', async () => {
    const { b, held, change } = holding(detailOf(demo('Document the CLI')));
    b.on('TaskService.Update', (_id, u) => change({ title: u.title }));
    const s = new EditorStore(b, held.task.id);
    const off = s.subscribe();
    await s.load();
    expect(s.dirty).toBe(false);
    s.draft!.title = 'Document every CLI verb';
    expect(s.dirty).toBe(true);
    await s.load(false); // what a tasks:changed hint does
    expect(s.draft!.title).toBe('Document every CLI verb');
    expect(await s.save()).toBe(true);
    expect(b.argsOf('TaskService.Update')[0][1].title).toBe('Document every CLI verb');
    expect(s.task!.title).toBe('Document every CLI verb');
    expect(s.dirty).toBe(false);
    off();
  });

  it('is read-only while ongoing and the backend refusal is shown', async () => {
    const { b, held } = holding(detailOf(demo('Add dark mode to the settings page')));
    const refused = transitionError('ongoing', 'archived');
    b.on('TaskService.Archive', () => {
      throw new Error(refused);
    });
    const s = new EditorStore(b, held.task.id);
    await s.load();
    expect(s.readOnly).toBe(true);
    expect(await s.save()).toBe(false);
    expect(b.count('TaskService.Update')).toBe(0);
    expect(await s.archive()).toBe(false);
    expect(s.error).toBe(refused);
  });

  it('retries, archives, unarchives, exports and deletes', async () => {
    const report = (role: Report['role'], round: number, verdict: Report['verdict']): Report => ({ role, round, iteration: 1, body: `VERDICT: ${verdict}`, verdict, created_at: at });
    const failed = detailOf(demo('Parse codex usage lines'), {
      prompt: 'Read token usage from codex exec JSON output.',
      reports: [report('observer', 1, 'CHANGES_REQUESTED'), report('observer', 2, 'APPROVE'), report('reviewer', 1, 'CHANGES_REQUESTED')],
    });
    const { b, held, change } = holding(failed);
    b.on('TaskService.Retry', () => change({ status: 'pending' }))
      .on('TaskService.Archive', () => change({ status: 'archived' }))
      .on('TaskService.Unarchive', () => change({ status: 'pending' }))
      .on('TaskService.Export', () => `---\nid: ${held.task.id}\ntitle: ${held.task.title}\n---\n\n## Prompt\n\n${held.task.prompt}\n`)
      .on('TaskService.Delete', () => undefined);
    const s = new EditorStore(b, held.task.id);
    await s.load();
    expect(s.reports.find((g) => g.role === 'observer')!.reports.map((r) => r.verdict)).toEqual(['CHANGES_REQUESTED', 'APPROVE']);
    await s.retry();
    expect(s.task!.status).toBe('pending');
    expect(s.notice).toBe('Queued again from the planner.');
    await s.archive();
    expect(s.task!.status).toBe('archived');
    await s.unarchive();
    expect(s.task!.status).toBe('pending');
    expect(await s.exportMarkdown()).toMatch(/## Prompt\n\nRead token usage/);
    expect(await s.remove(false)).toBe(true);
    expect(b.argsOf('TaskService.Delete')).toEqual([[s.id, { delete_branches: false }]]);
    expect(b.calls.at(-1)!.args).toEqual([s.id, { delete_branches: false }]);
  });

  it('retries a failed task from the developer', async () => {
    const { b, held, change } = holding(detailOf(demo('Parse codex usage lines')));
    b.on('TaskService.RetryFrom', () => {
      // Go retries a failed task; a pending one it refuses (it allows failed or stopped ones).
      if (held.task.status !== 'failed') throw new Error(statusError('retry', held.task.status));
      return change({ status: 'pending' });
    });
    const s = new EditorStore(b, held.task.id);
    await s.load();
    expect(await s.retryFromDeveloper()).toBe(true);
    expect(b.calls.at(-2)!).toMatchObject({ method: 'TaskService.RetryFrom', args: [held.task.id, 'developer'] });
    expect(s.task!.status).toBe('pending');
    expect(s.notice).toBe('Queued again from the developer, with the last final plan.');
    expect(await s.retryFromDeveloper()).toBe(false);
    expect(s.error).toBe(statusError('retry', 'pending'));
  });

  it('adds and removes attachments', async () => {
    const { b, held } = holding(detailOf(demo('Document the CLI')));
    const spec = { name: 'spec.txt', size: 12, added_at: at, path: `/home/dev/.local/share/boof-runner/attachments/${held.task.id}/spec.txt` };
    b.on('TaskService.AddAttachment', () => [spec]).on('TaskService.RemoveAttachment', () => []);
    const s = new EditorStore(b, held.task.id);
    await s.load();
    await s.addAttachment('spec.txt', btoa('hello world!'));
    expect(b.argsOf('TaskService.AddAttachment')).toEqual([[held.task.id, { name: 'spec.txt', data_base64: btoa('hello world!') }]]);
    expect(s.task!.attachments.map((a) => [a.name, a.size])).toEqual([['spec.txt', 12]]);
    await s.removeAttachment('spec.txt');
    expect(b.argsOf('TaskService.RemoveAttachment')).toEqual([[held.task.id, 'spec.txt']]);
    expect(s.task!.attachments).toEqual([]);
  });

  it('reports a missing task', async () => {
    const b = new StubBackend({
      'TaskService.Get': (id) => {
        throw new Error(notFoundError('task', id));
      },
    });
    const s = new EditorStore(b, 'nope');
    await s.load();
    expect(s.task).toBeNull();
    expect(s.error).toBe(notFoundError('task', 'nope'));
  });
});

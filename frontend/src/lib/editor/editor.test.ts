import { describe, expect, it } from 'vitest';
import { FakeBackend } from '../backend/fake';
import { EditorStore, groupReports, toUpdate, draftOf } from './editor.svelte';
import type { Report } from '../backend/types';

const byTitle = (b: FakeBackend, title: string) => [...b.tasks.values()].find((t) => t.title === title)!.id;

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
  it('validates and converts the draft', async () => {
    const b = new FakeBackend();
    const d = draftOf(await b.invoke('TaskService.Get', byTitle(b, 'Document the CLI')));
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
    const b = new FakeBackend();
    const s = new EditorStore(b, byTitle(b, 'Document the CLI'));
    const off = s.subscribe();
    await s.load();
    expect(s.dirty).toBe(false);
    s.draft!.title = 'Document every CLI verb';
    expect(s.dirty).toBe(true);
    await s.load(false); // what a tasks:changed hint does
    expect(s.draft!.title).toBe('Document every CLI verb');
    expect(await s.save()).toBe(true);
    expect(b.tasks.get(s.id)!.title).toBe('Document every CLI verb');
    expect(s.dirty).toBe(false);
    off();
  });

  it('is read-only while ongoing and the backend refusal is shown', async () => {
    const b = new FakeBackend();
    const s = new EditorStore(b, byTitle(b, 'Add dark mode to the settings page'));
    await s.load();
    expect(s.readOnly).toBe(true);
    expect(await s.save()).toBe(false);
    expect(await s.archive()).toBe(false);
    expect(s.error).toBe('This task is ongoing: stop it before you archive it.');
  });

  it('retries, archives, unarchives, exports and deletes', async () => {
    const b = new FakeBackend();
    const s = new EditorStore(b, byTitle(b, 'Parse codex usage lines'));
    await s.load();
    expect(s.reports.find((g) => g.role === 'observer')!.reports.map((r) => r.verdict)).toEqual(['CHANGES_REQUESTED', 'APPROVE']);
    await s.retry();
    expect(s.task!.status).toBe('pending');
    await s.archive();
    expect(s.task!.status).toBe('archived');
    await s.unarchive();
    expect(s.task!.status).toBe('pending');
    expect(await s.exportMarkdown()).toMatch(/## Prompt\n\nRead token usage/);
    expect(await s.remove(false)).toBe(true);
    expect(b.tasks.has(s.id)).toBe(false);
    expect(b.calls.at(-1)!.args).toEqual([s.id, { delete_branches: false }]);
  });

  it('adds and removes attachments', async () => {
    const b = new FakeBackend();
    const s = new EditorStore(b, byTitle(b, 'Document the CLI'));
    await s.load();
    await s.addAttachment('spec.txt', btoa('hello world!'));
    expect(s.task!.attachments.map((a) => [a.name, a.size])).toEqual([['spec.txt', 12]]);
    await s.removeAttachment('spec.txt');
    expect(s.task!.attachments).toEqual([]);
  });

  it('reports a missing task', async () => {
    const b = new FakeBackend();
    const s = new EditorStore(b, 'nope');
    await s.load();
    expect(s.task).toBeNull();
    expect(s.error).toBe('Task "nope" does not exist.');
  });
});

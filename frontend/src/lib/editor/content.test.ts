import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { StubBackend } from '../backend/stub';
import { taskDetail, viewOf } from '../backend/stub-data';
import type { Command, TaskDetail } from '../backend/types';
import { EditorStore } from './editor.svelte';
import EditorForm from './EditorForm.svelte';
import Attachments from './Attachments.svelte';
import RoleUsage from './RoleUsage.svelte';

const at = '2026-01-01T00:00:00Z';
const id = 't1';

/** A task added with the text of the "docs" template and one file, as TaskService.Get returns it. */
function created(over: Partial<TaskDetail> = {}): TaskDetail {
  return taskDetail({
    id,
    title: 'T',
    prompt: 'p',
    command: 'docs',
    command_text: 'Update the README.',
    attachments: [{ name: 'note.md', size: 4, added_at: at, path: `/home/dev/.local/share/boof-runner/attachments/${id}/note.md` }],
    ...over,
  });
}

describe('task content in the editor', () => {
  it('shows the copy the task keeps after the template changed, and the attachment paths', async () => {
    const b = new StubBackend({ 'TaskService.Get': () => created() });
    const commands: Command[] = [{ id: 'docs', name: 'docs', body: 'CHANGED', updated_at: at }];
    const s = new EditorStore(b, id);
    await s.load();
    render(EditorForm, { store: s, branches: [], commands, tools: [] });
    expect(screen.getByLabelText('Command text').textContent).toBe('Update the README.');
    render(Attachments, { store: s });
    const list = screen.getByRole('list', { name: 'Attached files' });
    expect(list.textContent).toContain('note.md');
    expect(list.textContent).toContain('4 bytes');
    expect(list.textContent).toContain(`/attachments/${id}/note.md`);
  });

  it('sends another template on save and shows the copy the task keeps', async () => {
    let task = created();
    const texts: Record<string, string> = { docs: 'Update the README.', lint: 'Run the linter.' };
    const b = new StubBackend({
      'TaskService.Get': () => task,
      // As Go does: the same template name keeps the task's copy, another one is copied now.
      'TaskService.Update': (_id, u) => viewOf((task = { ...task, title: u.title, command: u.command, command_text: u.command === task.command ? task.command_text : texts[u.command] })),
    });
    const s = new EditorStore(b, id);
    await s.load();
    s.draft!.title = 'T2';
    expect(await s.save()).toBe(true);
    expect(b.argsOf('TaskService.Update')[0][1].command).toBe('docs');
    expect(s.task!.command_text).toBe('Update the README.');
    s.draft!.command = 'lint';
    expect(await s.save()).toBe(true);
    expect(b.argsOf('TaskService.Update')[1][1].command).toBe('lint');
    expect(s.task!.command_text).toBe('Run the linter.');
  });

  it('names a deleted template in the select instead of showing none', async () => {
    const b = new StubBackend({ 'TaskService.Get': () => created() });
    const s = new EditorStore(b, id);
    await s.load();
    render(EditorForm, { store: s, branches: [], commands: [], tools: [] });
    const select = screen.getByRole('combobox', { name: 'Command template' }) as HTMLSelectElement;
    expect(select.value).toBe('docs');
    expect(select.selectedOptions[0].textContent).toBe('docs (deleted)');
    expect(screen.getByLabelText('Command text').textContent).toBe('Update the README.');
    expect(s.draft!.command).toBe('docs');
  });

  it('lists usage per role with a total', () => {
    render(RoleUsage, {
      rows: [
        { key: 'planner', executions: 1, tokens_in: 1000, tokens_out: 100, cost_usd: 0.25 },
        { key: 'developer', executions: 2, tokens_in: 5000, tokens_out: 900, cost_usd: 1.5 },
      ],
    });
    const table = screen.getByRole('table', { name: 'Usage per role' });
    const rows = table.querySelectorAll('tbody tr');
    expect([...rows].map((r) => [...r.children].map((c) => c.textContent).join(' '))).toEqual(['planner 1 1,000 100 $0.25', 'developer 2 5,000 900 $1.50']);
    expect(table.querySelector('tfoot')!.textContent).toMatch(/6,000.*1,000.*\$1\.75/);
  });
});

import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { FakeBackend } from '../backend/fake';
import { EditorStore } from './editor.svelte';
import EditorForm from './EditorForm.svelte';
import Attachments from './Attachments.svelte';
import RoleUsage from './RoleUsage.svelte';

async function created(b: FakeBackend) {
  b.commands = [{ id: 'docs', name: 'docs', body: 'Update the README.', updated_at: '2026-01-01T00:00:00Z' }];
  const t = await b.invoke('TaskService.Create', {
    title: 'T', prompt: 'p', priority: 0, base: '', labels: [], runs: 1, command: 'docs',
    attachments: [{ name: 'note.md', data_base64: btoa('note') }],
  });
  return t.id;
}

describe('task content in the editor', () => {
  it('shows the copy the task keeps after the template changed, and the attachment paths', async () => {
    const b = new FakeBackend({ seed: false });
    const id = await created(b);
    await b.invoke('CommandService.Save', { id: 'docs', name: 'docs', body: 'CHANGED' });
    const s = new EditorStore(b, id);
    await s.load();
    render(EditorForm, { store: s, branches: [], commands: b.commands, tools: [] });
    expect(screen.getByLabelText('Command text').textContent).toBe('Update the README.');
    render(Attachments, { store: s });
    const list = screen.getByRole('list', { name: 'Attached files' });
    expect(list.textContent).toContain('note.md');
    expect(list.textContent).toContain('4 bytes');
    expect(list.textContent).toContain(`/attachments/${id}/note.md`);
  });

  it('copies another template on save and keeps the copy for the same name', async () => {
    const b = new FakeBackend({ seed: false });
    const id = await created(b);
    b.commands.push({ id: 'lint', name: 'lint', body: 'Run the linter.', updated_at: '2026-01-01T00:00:00Z' });
    await b.invoke('CommandService.Delete', 'docs');
    const s = new EditorStore(b, id);
    await s.load();
    s.draft!.title = 'T2';
    expect(await s.save()).toBe(true);
    expect(s.task!.command_text).toBe('Update the README.');
    s.draft!.command = 'lint';
    expect(await s.save()).toBe(true);
    expect(s.task!.command_text).toBe('Run the linter.');
  });

  it('names a deleted template in the select instead of showing none', async () => {
    const b = new FakeBackend({ seed: false });
    const id = await created(b);
    await b.invoke('CommandService.Delete', 'docs');
    const s = new EditorStore(b, id);
    await s.load();
    render(EditorForm, { store: s, branches: [], commands: b.commands, tools: [] });
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

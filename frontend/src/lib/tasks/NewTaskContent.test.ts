import { describe, expect, it } from 'vitest';
import { render, screen, fireEvent, waitFor, within } from '@testing-library/svelte';
import { StubBackend } from '../backend/stub';
import { taskView } from '../backend/stub-data';
import { notFoundError } from '../backend/goldens';
import type { CreateTaskInput, TaskView } from '../backend/types';
import { TaskStore } from './tasks.svelte';
import NewTaskForm from './NewTaskForm.svelte';

function setup() {
  const commands = [{ id: 'tests', name: 'tests', body: 'Add a table test.', updated_at: '2026-01-01T00:00:00Z' }];
  let listed: TaskView[] = [];
  const b = new StubBackend({
    'TaskService.List': () => listed,
    'TaskService.Create': (input) => (listed = [taskView({ id: 'n1', prompt: input.prompt, title: input.title })])[0],
  });
  const store = new TaskStore(b);
  render(NewTaskForm, { store, branches: ['main'], commands });
  return { b, store };
}

function pick(input: HTMLElement, files: File[]) {
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  return fireEvent.change(input);
}

describe('NewTaskForm: template and attachments', () => {
  it('sends the picked template and files with the task, all at once', async () => {
    const { b, store } = setup();
    await fireEvent.input(screen.getByRole('textbox', { name: /prompt/i }), { target: { value: 'Fix the parser' } });
    await fireEvent.change(screen.getByRole('combobox', { name: 'Command template' }), { target: { value: 'tests' } });
    expect(screen.getByText(/keeps a copy of this template's text/)).toBeTruthy();
    const input = screen.getByLabelText('Attach files');
    // Our own button over the native input (no WebKit "Choose Files / no files selected").
    expect(input.closest('label')?.textContent?.trim()).toBe('Add files…');
    await pick(input, [new File(['hello world!'], 'spec.txt'), new File([new Uint8Array([0x89, 0x50])], 'shot.png')]);
    const list = await screen.findByRole('list', { name: 'Files to attach' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(list.textContent).toMatch(/spec\.txt\s*12 bytes/);
    await fireEvent.click(screen.getByRole('button', { name: 'Do not attach shot.png' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);

    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    await waitFor(() => expect(store.tasks).toHaveLength(1));
    const sent = b.argsOf('TaskService.Create')[0][0] as CreateTaskInput;
    expect(sent.command).toBe('tests');
    expect(sent.attachments).toEqual([{ name: 'spec.txt', data_base64: btoa('hello world!') }]);
    expect(b.count('TaskService.Create')).toBe(1);
    expect(screen.queryByRole('list', { name: 'Files to attach' })).toBeNull();
  });

  it('keeps the form when the backend refuses (template deleted meanwhile)', async () => {
    const { b, store } = setup();
    await fireEvent.input(screen.getByRole('textbox', { name: /prompt/i }), { target: { value: 'Fix it' } });
    await fireEvent.change(screen.getByRole('combobox', { name: 'Command template' }), { target: { value: 'tests' } });
    await pick(screen.getByLabelText('Attach files'), [new File(['x'], 'a.txt')]);
    await screen.findByRole('list', { name: 'Files to attach' });
    const gone = notFoundError('command', 'tests');
    b.on('TaskService.Create', () => {
      throw new Error(gone);
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    expect((await screen.findByRole('alert')).textContent).toBe(gone);
    expect(store.tasks).toHaveLength(0);
    expect(b.count('TaskService.List')).toBe(0);
    expect(screen.getByRole('list', { name: 'Files to attach' }).textContent).toMatch(/a\.txt/);
  });
});

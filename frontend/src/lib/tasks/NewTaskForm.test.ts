import { describe, expect, it } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/svelte';
import { FakeBackend } from '../backend/fake';
import { TaskStore } from './tasks.svelte';
import NewTaskForm from './NewTaskForm.svelte';

function setup() {
  const b = new FakeBackend({ seed: false });
  const store = new TaskStore(b);
  render(NewTaskForm, { store, branches: ['main'] });
  return { b, store, prompt: screen.getByRole('textbox', { name: /prompt/i }) as HTMLTextAreaElement };
}

describe('NewTaskForm', () => {
  it('focuses the prompt on mount', () => {
    const { prompt } = setup();
    expect(document.activeElement).toBe(prompt);
  });

  it('submits with Ctrl+Enter and clears the prompt', async () => {
    const { b, store, prompt } = setup();
    await fireEvent.input(prompt, { target: { value: 'Add a README' } });
    await fireEvent.keyDown(prompt, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(store.tasks).toHaveLength(1));
    expect(store.tasks[0].prompt).toBe('Add a README');
    expect(prompt.value).toBe('');
    expect(b.calls.filter((c) => c.method === 'TaskService.Create')).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toMatch(/Add a README/);
  });

  it('does not submit on a plain Enter', async () => {
    const { b, prompt } = setup();
    await fireEvent.input(prompt, { target: { value: 'x' } });
    await fireEvent.keyDown(prompt, { key: 'Enter' });
    expect(b.calls.filter((c) => c.method === 'TaskService.Create')).toHaveLength(0);
  });

  it('refuses an empty prompt in place without calling the backend', async () => {
    const { b } = setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    expect(screen.getByRole('alert').textContent).toMatch(/Write a prompt/);
    expect(b.calls.filter((c) => c.method === 'TaskService.Create')).toHaveLength(0);
  });

  it('refuses a priority that is not a whole number', async () => {
    const { b, prompt } = setup();
    await fireEvent.input(prompt, { target: { value: 'x' } });
    await fireEvent.input(screen.getByRole('textbox', { name: 'Priority' }), { target: { value: '1.5' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    expect(screen.getByRole('alert').textContent).toMatch(/Priority must be a whole number/);
    expect(b.calls.filter((c) => c.method === 'TaskService.Create')).toHaveLength(0);
  });

  it('shows the backend error for an unknown base ref and keeps the input', async () => {
    const { prompt } = setup();
    await fireEvent.input(prompt, { target: { value: 'x' } });
    await fireEvent.input(screen.getByRole('combobox', { name: 'Base ref' }), { target: { value: 'nope' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('The base ref "nope" is not a branch or commit in /home/dev/project.'));
    expect(prompt.value).toBe('x');
  });

  it('sends title, labels, priority and runs', async () => {
    const { b, prompt } = setup();
    await fireEvent.input(prompt, { target: { value: 'Do it' } });
    await fireEvent.input(screen.getByRole('textbox', { name: /Title/ }), { target: { value: ' T ' } });
    await fireEvent.input(screen.getByRole('textbox', { name: 'Labels' }), { target: { value: 'a, b' } });
    await fireEvent.input(screen.getByRole('textbox', { name: 'Priority' }), { target: { value: '3' } });
    await fireEvent.input(screen.getByRole('textbox', { name: 'Runs' }), { target: { value: '2' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    await waitFor(() => expect(b.calls.some((c) => c.method === 'TaskService.Create')).toBe(true));
    expect(b.calls.find((c) => c.method === 'TaskService.Create')!.args[0]).toEqual({ title: 'T', prompt: 'Do it', priority: 3, base: '', labels: ['a', 'b'], runs: 2, command: '', attachments: [] });
  });
});

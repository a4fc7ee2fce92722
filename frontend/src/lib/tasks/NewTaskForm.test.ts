import { describe, expect, it } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/svelte';
import { StubBackend } from '../backend/stub';
import { taskView } from '../backend/stub-data';
import { unknownBase } from '../backend/goldens';
import type { TaskView } from '../backend/types';
import { TaskStore } from './tasks.svelte';
import NewTaskForm from './NewTaskForm.svelte';

/** A backend that stores what is created (unless the base is the golden's unknown one) and lists it. */
function setup() {
  const refused = unknownBase('nope');
  let listed: TaskView[] = [];
  const b = new StubBackend({
    'TaskService.List': () => listed,
    'TaskService.Create': (input) => {
      if (input.base === 'nope') throw new Error(refused.message);
      const t = taskView({ id: `n${listed.length + 1}`, title: input.title, prompt: input.prompt });
      listed = [...listed, t];
      return t;
    },
  });
  const store = new TaskStore(b);
  render(NewTaskForm, { store, branches: ['main'] });
  return { b, store, refused, prompt: screen.getByRole('textbox', { name: /prompt/i }) as HTMLTextAreaElement };
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
    expect(b.count('TaskService.Create')).toBe(1);
    expect(screen.getByRole('status').textContent).toMatch(/Add a README/);
  });

  it('does not submit on a plain Enter', async () => {
    const { b, prompt } = setup();
    await fireEvent.input(prompt, { target: { value: 'x' } });
    await fireEvent.keyDown(prompt, { key: 'Enter' });
    expect(b.count('TaskService.Create')).toBe(0);
  });

  it('refuses an empty prompt in place without calling the backend', async () => {
    const { b } = setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    expect(screen.getByRole('alert').textContent).toMatch(/Write a prompt/);
    expect(b.count('TaskService.Create')).toBe(0);
  });

  it('refuses a priority that is not a whole number', async () => {
    const { b, prompt } = setup();
    await fireEvent.input(prompt, { target: { value: 'x' } });
    await fireEvent.input(screen.getByRole('textbox', { name: 'Priority' }), { target: { value: '1.5' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    expect(screen.getByRole('alert').textContent).toMatch(/Priority must be a whole number/);
    expect(b.count('TaskService.Create')).toBe(0);
  });

  it('shows the backend error for an unknown base ref and keeps the input', async () => {
    const { prompt, refused } = setup();
    await fireEvent.input(prompt, { target: { value: 'x' } });
    await fireEvent.input(screen.getByRole('combobox', { name: 'Base ref' }), { target: { value: 'nope' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(refused.message));
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
    await waitFor(() => expect(b.count('TaskService.Create')).toBe(1));
    expect(b.argsOf('TaskService.Create')[0][0]).toEqual({ title: 'T', prompt: 'Do it', priority: 3, base: '', labels: ['a', 'b'], runs: 2, command: '', attachments: [] });
  });
});

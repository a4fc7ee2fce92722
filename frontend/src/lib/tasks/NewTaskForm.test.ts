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

describe('NewTaskForm from an issue', () => {
  // Go's sentence for an address that is no issue (backend/usererr/forge.go; no golden holds it yet).
  const NOT_AN_ISSUE = 'issue-42 is not the address of an issue (like https://github.com/OWNER/REPO/issues/12 or https://gitlab.com/GROUP/PROJECT/-/issues/12).';

  it('creates the task through ForgeService.CreateFromIssue, with the form’s title, labels, priority and base; Go’s refusal shown as Go words it', async () => {
    const { b, store } = setup();
    let listed: TaskView[] = [];
    b.on('TaskService.List', () => listed);
    b.on('ForgeService.CreateFromIssue', (input) => {
      const t = taskView({ id: 'i1', title: 'Login fails on Safari', prompt: 'Login fails on Safari\n\nSteps…', labels: ['bug', ...input.labels] });
      listed = [t];
      return { id: t.id, title: t.title, prompt: t.prompt, labels: t.labels };
    });
    await fireEvent.click(screen.getByRole('checkbox', { name: /From an issue/ }));
    expect(screen.queryByRole('textbox', { name: /prompt/i })).toBeNull();
    const url = screen.getByRole('textbox', { name: /Issue URL/ }) as HTMLInputElement;

    // Nothing typed: said here, nothing sent.
    await fireEvent.click(screen.getByRole('button', { name: 'Add task from issue' }));
    expect(screen.getByRole('alert').textContent).toBe("Paste the issue's address: a GitHub or GitLab issue URL.");
    expect(b.count('ForgeService.CreateFromIssue')).toBe(0);

    await fireEvent.input(url, { target: { value: 'issue-42' } });
    b.failNext('ForgeService.CreateFromIssue', NOT_AN_ISSUE);
    await fireEvent.click(screen.getByRole('button', { name: 'Add task from issue' }));
    expect((await screen.findByText(NOT_AN_ISSUE)).getAttribute('role')).toBe('alert');
    expect(url.value).toBe('issue-42');

    await fireEvent.input(url, { target: { value: ' https://github.com/me/app/issues/42 ' } });
    await fireEvent.input(screen.getByRole('textbox', { name: 'Labels' }), { target: { value: 'ui' } });
    await fireEvent.input(screen.getByRole('textbox', { name: 'Priority' }), { target: { value: '2' } });
    await fireEvent.input(screen.getByRole('combobox', { name: 'Base ref' }), { target: { value: 'main' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add task from issue' }));
    await waitFor(() => expect(store.tasks.map((t) => t.id)).toEqual(['i1']));
    expect(b.argsOf('ForgeService.CreateFromIssue')).toEqual([
      [{ url: 'issue-42', title: '', labels: [], priority: 0, base: '', repo: '' }],
      [{ url: 'https://github.com/me/app/issues/42', title: '', labels: ['ui'], priority: 2, base: 'main', repo: '' }],
    ]);
    expect(b.count('TaskService.Create')).toBe(0);
    expect(screen.getByRole('status').textContent).toBe('Added “Login fails on Safari” to the queue.');
    expect(url.value).toBe('');
  });
});

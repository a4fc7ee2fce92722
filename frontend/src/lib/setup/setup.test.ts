import { describe, expect, it } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/svelte';
import { StubBackend } from '../backend/stub';
import { taskView } from '../backend/stub-data';
import type { RecentRepository, RepoCheck, SetupStatus } from '../backend/setup-api';
import type { TaskView } from '../backend/types';
import { TaskStore } from '../tasks/tasks.svelte';
import NewTaskForm from '../tasks/NewTaskForm.svelte';
import { SetupStore } from './setup.svelte';
import FirstLaunch from './FirstLaunch.svelte';

const repoOk: RepoCheck = { path: '/src/app', usable: true, git: true };
const gone: RepoCheck = { path: '/src/gone', usable: false, git: false, problem: 'The working directory /src/gone does not exist.' };

/** The New task form on a data root with the given recent repositories (none: no working directory). */
function form(recent: RecentRepository[], pick: RepoCheck = repoOk) {
  let listed: TaskView[] = [];
  const b = new StubBackend({
    'TaskService.List': () => listed,
    'TaskService.Create': (input) => {
      const t = taskView({ id: `n${listed.length + 1}`, title: input.title, prompt: input.prompt });
      listed = [...listed, t];
      return t;
    },
    'SetupService.RecentRepositories': () => recent,
    'SetupService.PickRepository': () => pick,
    'SetupService.CheckRepository': (path) => (path === gone.path ? gone : { ...repoOk, path }),
  });
  const store = new TaskStore(b);
  const setup = new SetupStore(b);
  render(NewTaskForm, { store, setup });
  return { b, store, prompt: screen.getByRole('textbox', { name: /prompt/i }) as HTMLTextAreaElement };
}

describe('the New task form without a working directory', () => {
  it('refuses to queue until a repository is chosen, then queues in it', async () => {
    const { b, prompt } = form([]);
    await waitFor(() => expect(screen.getByText(/required: no working directory is set/)).toBeTruthy());
    await fireEvent.input(prompt, { target: { value: 'Fix the bug' } });
    await fireEvent.keyDown(prompt, { key: 'Enter', ctrlKey: true });
    expect(document.getElementById('new-task-error')?.textContent).toMatch(/Choose a repository folder first/);
    expect(b.count('TaskService.Create')).toBe(0);
    expect(screen.queryByRole('status')).toBeNull();

    await fireEvent.click(screen.getByRole('button', { name: 'Choose folder…' }));
    await waitFor(() => expect((screen.getByRole('textbox', { name: /repository/i }) as HTMLInputElement).value).toBe('/src/app'));
    await fireEvent.keyDown(prompt, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(b.count('TaskService.Create')).toBe(1));
    expect(b.calls.find((c) => c.method === 'TaskService.Create')?.args[0]).toMatchObject({ prompt: 'Fix the bug', repo: '/src/app' });
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/Added “Fix the bug” to the queue/));
  });

  it("shows Go's sentence for a folder a task cannot run in and does not queue", async () => {
    const { b, prompt } = form([{ path: '/src/other', working_directory: false, tasks: 2 }]);
    await fireEvent.input(prompt, { target: { value: 'Fix the bug' } });
    const repo = screen.getByRole('textbox', { name: /repository/i });
    await fireEvent.input(repo, { target: { value: gone.path } });
    await fireEvent.change(repo);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(gone.problem));
    await fireEvent.keyDown(prompt, { key: 'Enter', ctrlKey: true });
    expect(document.getElementById('new-task-error')?.textContent).toBe(gone.problem);
    expect(b.count('TaskService.Create')).toBe(0);
    // a recent repository is one click
    await fireEvent.click(screen.getByRole('button', { name: 'other' }));
    await waitFor(() => expect((repo as HTMLInputElement).value).toBe('/src/other'));
    await fireEvent.keyDown(prompt, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(b.count('TaskService.Create')).toBe(1));
  });

  it('queues in the working directory when one is set', async () => {
    const { b, prompt } = form([{ path: '/src/app', working_directory: true, tasks: 0 }]);
    await waitFor(() => expect(screen.getByText(/optional: else the working directory, \/src\/app/)).toBeTruthy());
    await fireEvent.input(prompt, { target: { value: 'Fix the bug' } });
    await fireEvent.keyDown(prompt, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(b.count('TaskService.Create')).toBe(1));
    expect(b.calls.find((c) => c.method === 'TaskService.Create')?.args[0]).not.toHaveProperty('repo');
  });
});

describe('FirstLaunch', () => {
  const status: SetupStatus = {
    ready: false,
    dismissed: false,
    working_directory: '',
    tools: [],
    problems: [
      { kind: 'no_agent_cli', action: 'install', message: 'No agent CLI is installed: tasks run through claude-code (claude) or codex (codex).', fix: 'Install one of them in a terminal, then check again.', commands: ['npm install -g @anthropic-ai/claude-code', 'npm install -g @openai/codex'] },
      { kind: 'no_repository', action: 'choose_repository', message: 'No repository is chosen: a task needs a git repository to work in.', fix: 'Choose the repository your tasks work in; a task can also name its own.' },
    ],
  };

  it('opens at start while something is missing, names each with its fix, and remembers a dismissal', async () => {
    const b = new StubBackend({ 'SetupService.Status': () => status, 'SetupService.RecentRepositories': () => [], 'SetupService.Dismiss': () => undefined });
    const s = new SetupStore(b);
    await s.check(true);
    expect(s.open).toBe(true);
    render(FirstLaunch, { store: s });
    expect(screen.getByText(status.problems[0].message)).toBeTruthy();
    expect(screen.getByText(status.problems[1].message)).toBeTruthy();
    expect(screen.getByText('2 things to fix before a task can run; each has its one-click fix.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy npm install -g @openai/codex' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose a repository…' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(s.open).toBe(false);
    await waitFor(() => expect(b.count('SetupService.Dismiss')).toBe(1));
  });

  it('checks no tool at start once dismissed, and counts nothing missing as dismissed', async () => {
    const dismissed = new StubBackend({ 'SetupService.Dismissed': () => true, 'SetupService.Status': () => status });
    const s = new SetupStore(dismissed);
    await s.start();
    expect(s.open).toBe(false);
    expect(dismissed.count('SetupService.Status')).toBe(0);

    const ready = new StubBackend({ 'SetupService.Dismissed': () => false, 'SetupService.Status': () => ({ ...status, ready: true, problems: [] }), 'SetupService.Dismiss': () => undefined });
    const r = new SetupStore(ready);
    await r.start();
    expect(r.open).toBe(false);
    expect(ready.count('SetupService.Dismiss')).toBe(1);

    const missing = new StubBackend({ 'SetupService.Dismissed': () => false, 'SetupService.Status': () => status, 'SetupService.Dismiss': () => undefined });
    const m = new SetupStore(missing);
    await m.start();
    expect(m.open).toBe(true);
    expect(missing.count('SetupService.Dismiss')).toBe(0);
  });

  it('does not open at start once dismissed, nor when nothing is missing', async () => {
    for (const st of [{ ...status, dismissed: true }, { ...status, ready: true, problems: [] }]) {
      const s = new SetupStore(new StubBackend({ 'SetupService.Status': () => st }));
      await s.check(true);
      expect(s.open).toBe(false);
    }
  });

  it("chooses the repository through the picker and shows Go's refusal of an unusable one", async () => {
    const b = new StubBackend({
      'SetupService.Status': () => status,
      'SetupService.RecentRepositories': () => [],
      'SetupService.PickRepository': () => gone,
      'SetupService.UseRepository': (path) => (path === gone.path ? gone : { ...repoOk, path }),
    });
    const s = new SetupStore(b);
    await s.check(true);
    render(FirstLaunch, { store: s });
    await fireEvent.click(screen.getByRole('button', { name: 'Choose a repository…' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(gone.problem));
    expect(b.calls.filter((c) => c.method === 'SetupService.UseRepository').map((c) => c.args[0])).toEqual([gone.path]);
  });
});

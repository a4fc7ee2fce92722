import { describe, expect, it } from 'vitest';
import { render, screen, fireEvent, waitFor, within } from '@testing-library/svelte';
import { StubBackend } from './lib/backend/stub';
import { DEMO, MODELS, budgetReport, demo, detailOf, pullRequest, runnerStatus, taskView, toolHealth, usageOf } from './lib/backend/stub-data';
import { defaultSettings } from './lib/backend/goldens';
import type { TaskView, UIRequest } from './lib/backend/types';
import App from './App.svelte';

/** What the window loads and shows, scripted over the demo tasks (or none). */
function appBackend(tasks: TaskView[] = DEMO) {
  let listed = tasks;
  return new StubBackend({
    'TaskService.List': (f) => listed.filter((t) => (f.status === 'archived') === (t.status === 'archived')),
    'TaskService.Create': (input) => {
      const t = taskView({ id: `n${listed.length}`, title: input.title, prompt: input.prompt, position: 9 });
      listed = [...listed, t];
      return t;
    },
    'TaskService.Get': (id) => detailOf(listed.find((t) => t.id === id)!),
    'TaskService.Branches': () => ['main', 'develop'],
    'RunService.Status': () => runnerStatus(listed.filter((t) => t.status === 'ongoing')),
    'RunService.Output': (id) => ({ task_id: id, feed: [], terminal: '', transcript_bytes: 0 }),
    'CommandService.List': () => [],
    'ScheduleService.List': () => [],
    'ScheduleService.Scheduled': () => [],
    'SettingsService.Tools': () => ['claude-code', 'codex', 'mock'],
    'SettingsService.ToolHealth': () => toolHealth(),
    'SettingsService.Models': (tool) => MODELS[tool] ?? [],
    'SettingsService.Get': () => ({ saved: true, errors: [], settings: defaultSettings() }),
    'SettingsService.Budget': () => budgetReport(),
    'SettingsService.Usage': usageOf,
    'VerifyService.Repos': () => [],
    'ReviewService.Summary': (id) => ({ task_id: id, base: 'main', head: 'feedc0de', files: [] }),
    'ReviewService.PlanAccept': () => {
      throw new Error('no dry run in this test');
    },
    'MergeQueueService.List': () => [],
    'ForgeService.PullRequest': (id) => pullRequest(id),
    'NavService.Ready': () => [],
    'NavService.Shown': () => undefined,
  });
}

describe('App', () => {
  it('lists tasks grouped by status and shows a new task at once', async () => {
    const b = appBackend();
    render(App, { backend: b });
    await screen.findByText('Add dark mode to the settings page');
    const heads = [...document.querySelectorAll('.group-head')].map((h) => h.getAttribute('data-group'));
    expect(heads.slice(0, 3)).toEqual(['ongoing', 'actions', 'pending']);
    const prompt = screen.getByRole('textbox', { name: /Prompt/ });
    expect(document.activeElement).toBe(prompt);
    await fireEvent.input(prompt, { target: { value: 'Brand new task' } });
    await fireEvent.keyDown(prompt, { key: 'Enter', ctrlKey: true });
    const queue = document.querySelector('[data-group="pending"] + ul') as HTMLElement;
    await waitFor(() => within(queue).getByText('Brand new task'));
  });

  it('unsubscribes from events when destroyed', async () => {
    const b = appBackend();
    const { unmount } = render(App, { backend: b });
    await screen.findByText('Add dark mode to the settings page');
    expect(b.listenerCount('tasks:changed')).toBeGreaterThan(0);
    unmount();
    expect(b.listenerCount('tasks:changed')).toBe(0);
  });
});

describe('App: requests from outside the window (tray, second launch, notification)', () => {
  const open = async (b: StubBackend, r: UIRequest) => {
    b.emit('ui:open', r);
    await new Promise((res) => setTimeout(res, 20));
  };

  it('New task… opens the form with the prompt focused, from any screen', async () => {
    const b = appBackend();
    render(App, { backend: b });
    await screen.findByText('Add dark mode to the settings page');
    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    await open(b, { seq: 1, view: 'new-task' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /Prompt/ })));
    await waitFor(() => expect(b.argsOf('NavService.Shown')).toEqual([[1, 'new-task']]));
  });

  it('Review opens the task asked for, says why when it cannot, and shows an empty state when nothing waits', async () => {
    const b = appBackend();
    render(App, { backend: b });
    await screen.findByText('Add dark mode to the settings page');
    const done = demo('Refactor settings loader');
    await open(b, { seq: 1, view: 'review', task_id: done.id });
    const picker = (await screen.findByRole('combobox', { name: 'Task to review' })) as HTMLSelectElement;
    await waitFor(() => expect(picker.value).toBe(done.id));

    await open(b, { seq: 2, view: 'review', message: 'Task "nope" does not exist.' });
    expect((await screen.findByRole('alert')).textContent).toBe('Task "nope" does not exist.');
    expect(picker.value).toBe('');
  });

  it('the Review screen says so when nothing is waiting for review', async () => {
    const b = appBackend([]);
    render(App, { backend: b });
    await open(b, { seq: 1, view: 'review' });
    expect((await screen.findByRole('status')).textContent).toContain('Nothing is waiting for review.');
  });

  it('a "needs an answer" notification opens the Actions screen on that task\'s answer form', async () => {
    const b = appBackend();
    render(App, { backend: b });
    await screen.findByText('Add dark mode to the settings page');
    const asking = DEMO.find((t) => t.status === 'actions')!;
    await open(b, { seq: 5, view: 'actions', task_id: asking.id });
    const form = await screen.findByRole('form', { name: `Answer ${asking.title}` });
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByRole('textbox', { name: 'Your answer' })));
  });

  it("a failed task's notification opens the task", async () => {
    const b = appBackend();
    render(App, { backend: b });
    await screen.findByText('Add dark mode to the settings page');
    const failed = DEMO.find((t) => t.status === 'failed')!;
    await open(b, { seq: 6, view: 'task', task_id: failed.id });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New task' })).toBeNull());
    await screen.findAllByText(failed.title);
    await waitFor(() => expect(b.argsOf('NavService.Shown').at(-1)).toEqual([6, 'task']));
  });
});

describe('App: start-up', () => {
  it('loads the tool names without checking the tools; the checks wait for the Settings screen', async () => {
    const b = appBackend();
    render(App, { backend: b });
    await fireEvent.click(await screen.findByText('Fix flaky worktree test'));
    const select = (await screen.findByRole('combobox', { name: 'developer tool' })) as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.value)).toEqual(['', 'claude-code', 'codex', 'mock']));
    expect(b.count('SettingsService.Tools')).toBe(1);
    expect(b.count('SettingsService.ToolHealth')).toBe(0);
    expect(b.count('SettingsService.Models')).toBe(0);

    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    await waitFor(() => expect(b.count('SettingsService.ToolHealth')).toBe(1));
  });
});

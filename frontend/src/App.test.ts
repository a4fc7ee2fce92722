import { describe, expect, it } from 'vitest';
import { render, screen, fireEvent, waitFor, within } from '@testing-library/svelte';
import { FakeBackend } from './lib/backend/fake';
import App from './App.svelte';

describe('App', () => {
  it('lists tasks grouped by status and shows a new task at once', async () => {
    const b = new FakeBackend();
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
    const b = new FakeBackend();
    const { unmount } = render(App, { backend: b });
    await screen.findByText('Add dark mode to the settings page');
    expect(b.listenerCount('tasks:changed')).toBeGreaterThan(0);
    unmount();
    expect(b.listenerCount('tasks:changed')).toBe(0);
  });
});

describe('App: requests from outside the window (tray, second launch, notification)', () => {
  const open = async (b: FakeBackend, r: object) => {
    b.emit('ui:open', r);
    await new Promise((res) => setTimeout(res, 20));
  };

  it('New task… opens the form with the prompt focused, from any screen', async () => {
    const b = new FakeBackend();
    render(App, { backend: b });
    await screen.findByText('Add dark mode to the settings page');
    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    await open(b, { seq: 1, view: 'new-task' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /Prompt/ })));
    await waitFor(() => expect(b.shownNav).toEqual([{ seq: 1, view: 'new-task' }]));
  });

  it('Review opens the task asked for, says why when it cannot, and shows an empty state when nothing waits', async () => {
    const b = new FakeBackend();
    render(App, { backend: b });
    await screen.findByText('Add dark mode to the settings page');
    const done = [...b.tasks.values()].find((t) => t.title === 'Refactor settings loader')!;
    await open(b, { seq: 1, view: 'review', task_id: done.id });
    const picker = (await screen.findByRole('combobox', { name: 'Task to review' })) as HTMLSelectElement;
    await waitFor(() => expect(picker.value).toBe(done.id));

    await open(b, { seq: 2, view: 'review', message: 'Task "nope" does not exist.' });
    expect((await screen.findByRole('alert')).textContent).toBe('Task "nope" does not exist.');
    expect(picker.value).toBe('');
  });

  it('the Review screen says so when nothing is waiting for review', async () => {
    const b = new FakeBackend({ seed: false });
    render(App, { backend: b });
    await open(b, { seq: 1, view: 'review' });
    expect((await screen.findByRole('status')).textContent).toContain('Nothing is waiting for review.');
  });

  it('a "needs an answer" notification opens the Actions screen on that task\'s answer form', async () => {
    const b = new FakeBackend();
    render(App, { backend: b });
    await screen.findByText('Add dark mode to the settings page');
    const asking = [...b.tasks.values()].find((t) => t.status === 'actions')!;
    await open(b, { seq: 5, view: 'actions', task_id: asking.id });
    const form = await screen.findByRole('form', { name: `Answer ${asking.title}` });
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByRole('textbox', { name: 'Your answer' })));
  });

  it('a failed task\'s notification opens the task', async () => {
    const b = new FakeBackend();
    render(App, { backend: b });
    await screen.findByText('Add dark mode to the settings page');
    const failed = [...b.tasks.values()].find((t) => t.status === 'failed')!;
    await open(b, { seq: 6, view: 'task', task_id: failed.id });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New task' })).toBeNull());
    await screen.findAllByText(failed.title);
    await waitFor(() => expect(b.shownNav.at(-1)).toEqual({ seq: 6, view: 'task' }));
  });
});

describe('App: start-up', () => {
  it('loads the tool names without checking the tools; the checks wait for the Settings screen', async () => {
    const b = new FakeBackend();
    render(App, { backend: b });
    await fireEvent.click(await screen.findByText('Fix flaky worktree test'));
    const select = (await screen.findByRole('combobox', { name: 'developer tool' })) as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.value)).toEqual(['', 'claude-code', 'codex', 'mock']));
    const called = (m: string) => b.calls.filter((c) => c.method === m).length;
    expect(called('SettingsService.Tools')).toBe(1);
    expect(called('SettingsService.ToolHealth')).toBe(0);
    expect(called('SettingsService.Models')).toBe(0);

    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    await waitFor(() => expect(called('SettingsService.ToolHealth')).toBe(1));
  });
});

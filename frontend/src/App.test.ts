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

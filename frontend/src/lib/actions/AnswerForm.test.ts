import { describe, expect, it } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/svelte';
import { FakeBackend } from '../backend/fake';
import { TaskStore } from '../tasks/tasks.svelte';
import ActionsScreen from './ActionsScreen.svelte';

describe('ActionsScreen', () => {
  it('lists questions and re-queues a task when answered', async () => {
    const b = new FakeBackend();
    const tasks = new TaskStore(b);
    await tasks.load();
    render(ActionsScreen, { backend: b, tasks });
    expect(screen.getByText('Should the limit be per host or global?')).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Answer and re-queue' }));
    expect(screen.getByRole('alert').textContent).toBe('Write an answer first.');
    await fireEvent.input(screen.getByRole('textbox', { name: 'Your answer' }), { target: { value: 'Per host.' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Answer and re-queue' }));
    await screen.findByText(/back in the queue/);
    const t = [...b.tasks.values()].find((x) => x.title === 'Rate limiter for the API client')!;
    expect(t.status).toBe('pending');
    expect(t.answers).toBe('Per host.');
    await waitFor(() => expect(screen.getByText('No task is waiting for an answer.')).toBeTruthy());
  });
});

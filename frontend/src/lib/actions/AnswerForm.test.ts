import { describe, expect, it } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/svelte';
import { StubBackend } from '../backend/stub';
import { demo, listDemo } from '../backend/stub-data';
import { TaskStore } from '../tasks/tasks.svelte';
import ActionsScreen from './ActionsScreen.svelte';

describe('ActionsScreen', () => {
  it('lists questions and re-queues a task when answered', async () => {
    const asking = demo('Rate limiter for the API client');
    const b = new StubBackend({ 'TaskService.List': listDemo });
    const tasks = new TaskStore(b);
    await tasks.load();
    render(ActionsScreen, { backend: b, tasks });
    expect(screen.getByText('Should the limit be per host or global?')).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Answer and re-queue' }));
    expect(screen.getByRole('alert').textContent).toBe('Write an answer first.');
    expect(b.count('TaskService.Answer')).toBe(0);
    // Answered, the task is pending again: the list the store reloads says so.
    b.on('TaskService.Answer', () => ({ ...asking, status: 'pending', questions: undefined })).on('TaskService.List', (f) => listDemo(f).filter((t) => t.id !== asking.id));
    await fireEvent.input(screen.getByRole('textbox', { name: 'Your answer' }), { target: { value: 'Per host.' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Answer and re-queue' }));
    await screen.findByText(/back in the queue/);
    expect(b.argsOf('TaskService.Answer')).toEqual([[asking.id, 'Per host.']]);
    await waitFor(() => expect(screen.getByText('No task is waiting for an answer.')).toBeTruthy());
  });
});

import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import MergeQueueScreen from './MergeQueueScreen.svelte';
import AddToQueue from './AddToQueue.svelte';
import { StubBackend } from '../backend/stub';
import { demo } from '../backend/stub-data';
import { callError } from '../backend/goldens';
import type { QueueItem } from '../backend/queue-api';
import type { TaskView } from '../backend/types';

const a = demo('Refactor settings loader');
const c = demo('Rename the module path');

/** An entry of the merge queue as MergeQueueService lists it. */
function entry(t: TaskView, over: Partial<QueueItem> = {}): QueueItem {
  return { id: 0, task_id: t.id, title: t.title, repo: '/home/me/project', target: 'main', strategy: 'merge', state: 'queued', reason: '', files: [], output: '', landed: '', verified: false, attempts: 0, updated_at: '2026-11-30T10:00:00Z', ...over };
}

const order = () => within(screen.getByRole('list', { name: 'Queued entries' })).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'));

describe('MergeQueueScreen', () => {
  it('says the queue is empty', async () => {
    render(MergeQueueScreen, { backend: new StubBackend({ 'MergeQueueService.List': () => [] }) });
    expect(await screen.findByText('The merge queue is empty.')).toBeTruthy();
  });

  it('lists entries in order, moves them, shows a parked reason and sends it back, and follows the queue live', async () => {
    // The queue as Go lists it at each step; the screen reloads it on queue:changed.
    let queue: QueueItem[] = [];
    const b = new StubBackend({
      'MergeQueueService.List': () => queue,
      'MergeQueueService.Move': (id, to) => {
        const e = queue.find((x) => x.task_id === id)!;
        queue = queue.filter((x) => x !== e);
        queue.splice(to, 0, e);
        return queue;
      },
    });
    render(MergeQueueScreen, { backend: b });
    await screen.findByText('The merge queue is empty.');
    // Added elsewhere (the Review screen, the CLI): the screen follows queue:changed.
    queue = [entry(a, { id: 1 }), entry(c, { id: 2, strategy: 'squash' })];
    b.emit('queue:changed');
    await waitFor(() => expect(order()).toEqual([a.title, c.title]));
    expect(screen.getAllByLabelText('State').map((s) => s.textContent)).toEqual(['queued', 'queued']);

    const second = screen.getAllByRole('listitem')[1];
    await fireEvent.click(within(second).getByRole('button', { name: 'Move up' }));
    await waitFor(() => expect(order()).toEqual([c.title, a.title]));
    expect(b.argsOf('MergeQueueService.Move')).toEqual([[c.id, 0]]);
    expect((within(screen.getAllByRole('listitem')[0]).getByRole('button', { name: 'Move up' }) as HTMLButtonElement).disabled).toBe(true);

    // A red verify parks the entry: its reason and output show, and only it can be sent back.
    expect(screen.queryByRole('button', { name: 'Send back' })).toBeNull();
    queue = [entry(c, { id: 2, state: 'blocked', reason: 'verification failed: go test ./... exited 1', output: '--- FAIL: TestGreeting' }), entry(a, { id: 1 })];
    b.emit('queue:changed');
    await screen.findByText('verification failed: go test ./... exited 1');
    expect(screen.getByText('--- FAIL: TestGreeting')).toBeTruthy();
    b.on('MergeQueueService.SendBack', () => (queue[0] = entry(c, { id: 2, state: 'returned' })));
    await fireEvent.click(screen.getByRole('button', { name: 'Send back' }));
    await screen.findByText(/Sent “.*” back to the developer/);
    expect(b.argsOf('MergeQueueService.SendBack')).toEqual([[c.id]]);
    await waitFor(() => expect(screen.getAllByLabelText('State')[0].textContent).toBe('sent back'));

    // Landed entries move under "Landed"; removing takes an entry out.
    queue = [entry(c, { id: 2, state: 'returned' }), entry(a, { id: 1, state: 'landed', landed: 'abc123' })];
    b.emit('queue:changed');
    const landed = await screen.findByRole('list', { name: 'Landed entries' });
    expect(within(landed).getByText('landed')).toBeTruthy();
    b.on('MergeQueueService.Remove', () => ((queue = []), true));
    await fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await screen.findByText('The merge queue is empty.');
    expect(b.argsOf('MergeQueueService.Remove').map((x) => x[0])).toEqual([c.id]);
  });

  it('shows the error of a refused change', async () => {
    const b = new StubBackend({ 'MergeQueueService.List': () => [entry(a, { id: 1 })] });
    render(MergeQueueScreen, { backend: b });
    await screen.findByText(a.title);
    b.failNext('MergeQueueService.Remove', 'Merge queue entry changed meanwhile.');
    await fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Merge queue entry changed meanwhile.');
  });
});

describe('AddToQueue', () => {
  it('adds a done task with the chosen strategy, then says where it is in the queue', async () => {
    let queue: QueueItem[] = [];
    const b = new StubBackend({
      'MergeQueueService.List': () => queue,
      'MergeQueueService.Add': (id, input) => (queue = [entry(a, { id: 1, strategy: input.strategy || 'merge' })])[0],
    });
    let opened = 0;
    render(AddToQueue, { backend: b, taskId: a.id, onopen: () => opened++ });
    const strategy = (await screen.findByRole('combobox', { name: 'Merge queue strategy' })) as HTMLSelectElement;
    await fireEvent.change(strategy, { target: { value: 'rebase' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add to merge queue' }));
    expect((await screen.findByRole('status')).textContent).toBe('In the merge queue: queued on main, position 1');
    expect(b.argsOf('MergeQueueService.Add')).toEqual([[a.id, { target: '', strategy: 'rebase' }]]);
    await fireEvent.click(screen.getByRole('button', { name: 'Open merge queue' }));
    expect(opened).toBe(1);
  });

  it('shows why a task cannot be queued', async () => {
    // Go's refusal of a task that is not done (the golden's is pending; an ongoing one reads the same but for its status).
    const refused = callError('merge queue: a task that is not done');
    const b = new StubBackend({
      'MergeQueueService.List': () => [],
      'MergeQueueService.Add': () => {
        throw new Error(refused);
      },
    });
    render(AddToQueue, { backend: b, taskId: demo('Document the CLI').id });
    await fireEvent.click(await screen.findByRole('button', { name: 'Add to merge queue' }));
    expect((await screen.findByRole('alert')).textContent).toBe(refused);
  });
});

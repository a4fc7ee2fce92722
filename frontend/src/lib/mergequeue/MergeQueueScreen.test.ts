import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import MergeQueueScreen from './MergeQueueScreen.svelte';
import AddToQueue from './AddToQueue.svelte';
import { FakeBackend } from '../backend/fake';
import { landFake, parkFake } from '../backend/fake-queue';

function doneTasks(b: FakeBackend): { id: string; title: string }[] {
  return [...b.tasks.values()].filter((t) => t.status === 'done').map((t) => ({ id: t.id, title: t.title }));
}

const order = () => within(screen.getByRole('list', { name: 'Queued entries' })).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'));

describe('MergeQueueScreen', () => {
  it('says the queue is empty', async () => {
    render(MergeQueueScreen, { backend: new FakeBackend() });
    expect(await screen.findByText('The merge queue is empty.')).toBeTruthy();
  });

  it('lists entries in order, moves them, shows a parked reason and sends it back, and follows the queue live', async () => {
    const b = new FakeBackend();
    const [a, c] = doneTasks(b);
    render(MergeQueueScreen, { backend: b });
    await screen.findByText('The merge queue is empty.');
    // Added elsewhere (the Review screen, the CLI): the screen follows queue:changed.
    await b.invoke('MergeQueueService.Add', a.id, { target: '', strategy: '' });
    await b.invoke('MergeQueueService.Add', c.id, { target: 'main', strategy: 'squash' });
    await waitFor(() => expect(order()).toEqual([a.title, c.title]));
    expect(screen.getAllByLabelText('State').map((s) => s.textContent)).toEqual(['queued', 'queued']);

    const second = screen.getAllByRole('listitem')[1];
    await fireEvent.click(within(second).getByRole('button', { name: 'Move up' }));
    await waitFor(() => expect(order()).toEqual([c.title, a.title]));
    expect(b.calls.some((x) => x.method === 'MergeQueueService.Move' && x.args[0] === c.id && x.args[1] === 0)).toBe(true);
    expect((within(screen.getAllByRole('listitem')[0]).getByRole('button', { name: 'Move up' }) as HTMLButtonElement).disabled).toBe(true);

    // A red verify parks the entry: its reason and output show, and only it can be sent back.
    expect(screen.queryByRole('button', { name: 'Send back' })).toBeNull();
    parkFake(b, c.id, 'verification failed: go test ./... exited 1', '--- FAIL: TestGreeting');
    await screen.findByText('verification failed: go test ./... exited 1');
    expect(screen.getByText('--- FAIL: TestGreeting')).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Send back' }));
    await screen.findByText(/Sent “.*” back to the developer/);
    expect(b.tasks.get(c.id)!.status).toBe('pending');
    await waitFor(() => expect(screen.getAllByLabelText('State')[0].textContent).toBe('sent back'));

    // Landed entries move under "Landed"; removing takes an entry out.
    landFake(b, a.id);
    const landed = await screen.findByRole('list', { name: 'Landed entries' });
    expect(within(landed).getByText('landed')).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await screen.findByText('The merge queue is empty.');
    expect(b.calls.filter((x) => x.method === 'MergeQueueService.Remove').map((x) => x.args[0])).toEqual([c.id]);
  });

  it('shows the error of a refused change', async () => {
    const b = new FakeBackend();
    const [a] = doneTasks(b);
    await b.invoke('MergeQueueService.Add', a.id, { target: '', strategy: '' });
    render(MergeQueueScreen, { backend: b });
    await screen.findByText(a.title);
    b.failNext('MergeQueueService.Remove', 'Merge queue entry changed meanwhile.');
    await fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Merge queue entry changed meanwhile.');
  });
});

describe('AddToQueue', () => {
  it('adds a done task with the chosen strategy, then says where it is in the queue', async () => {
    const b = new FakeBackend();
    const [a] = doneTasks(b);
    let opened = 0;
    render(AddToQueue, { backend: b, taskId: a.id, onopen: () => opened++ });
    const strategy = (await screen.findByRole('combobox', { name: 'Merge queue strategy' })) as HTMLSelectElement;
    await fireEvent.change(strategy, { target: { value: 'rebase' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add to merge queue' }));
    expect((await screen.findByRole('status')).textContent).toBe('In the merge queue: queued on main, position 1');
    const add = b.calls.find((x) => x.method === 'MergeQueueService.Add');
    expect(add?.args).toEqual([a.id, { target: '', strategy: 'rebase' }]);
    await fireEvent.click(screen.getByRole('button', { name: 'Open merge queue' }));
    expect(opened).toBe(1);
  });

  it('shows why a task cannot be queued', async () => {
    const b = new FakeBackend();
    const notDone = [...b.tasks.values()].find((t) => t.status === 'ongoing')!;
    render(AddToQueue, { backend: b, taskId: notDone.id });
    await fireEvent.click(await screen.findByRole('button', { name: 'Add to merge queue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This task is ongoing: only done tasks allow that.');
  });
});

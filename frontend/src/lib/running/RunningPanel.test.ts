import { describe, expect, it } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/svelte';
import { FakeBackend } from '../backend/fake';
import { RunnerStore } from './runner.svelte';
import RunningPanel from './RunningPanel.svelte';

function setup(delivery: 'live' | 'next_step' = 'next_step') {
  const b = new FakeBackend({ injectDelivery: delivery });
  const runner = new RunnerStore(b);
  const id = [...b.tasks.values()].find((t) => t.status === 'ongoing')!.id;
  const r = render(RunningPanel, { backend: b, runner, taskId: id, title: 'Dark mode' });
  return { b, runner, id, ...r };
}

describe('RunningPanel', () => {
  it('asks before stopping and stops only on confirm', async () => {
    const { b, id } = setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    const dlg = screen.getByRole('dialog');
    expect(dlg.textContent).toMatch(/The work is kept/);
    await fireEvent.click(screen.getByRole('button', { name: 'Keep running' }));
    expect(b.tasks.get(id)!.status).toBe('ongoing');
    await fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Stop task' }));
    await waitFor(() => expect(b.tasks.get(id)!.status).toBe('stopped'));
  });

  it('says when an injected prompt went into the live session', async () => {
    setup('live');
    await fireEvent.input(screen.getByRole('textbox', { name: 'Prompt to inject' }), { target: { value: 'hurry' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Inject' }));
    await screen.findByText('Delivered into the live session');
  });

  it('shows the feed and unsubscribes on destroy', async () => {
    const { b, id, unmount } = setup();
    await waitFor(() => expect(screen.getAllByRole('listitem').length).toBeGreaterThan(3));
    expect(b.listenerCount(`task:output:${id}`)).toBe(1);
    unmount();
    expect(b.listenerCount(`task:output:${id}`)).toBe(0);
  });
});

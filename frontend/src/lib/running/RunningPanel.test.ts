import { describe, expect, it } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/svelte';
import { StubBackend } from '../backend/stub';
import { demo, feedItems, runnerStatus } from '../backend/stub-data';
import type { InjectDelivery } from '../backend/types';
import { RunnerStore } from './runner.svelte';
import RunningPanel from './RunningPanel.svelte';

async function setup(delivery: InjectDelivery = 'next_step') {
  const t = demo('Add dark mode to the settings page');
  const b = new StubBackend({
    'RunService.Status': () => runnerStatus([t]),
    'RunService.Output': (id) => ({ task_id: id, feed: feedItems(8), terminal: 'mock developer starting\r\n', transcript_bytes: 25 }),
    'RunService.Stop': () => undefined,
    'RunService.Inject': () => ({ injection_id: 'inj1', delivery }),
  });
  const runner = new RunnerStore(b);
  await runner.load();
  const r = render(RunningPanel, { backend: b, runner, taskId: t.id, title: 'Dark mode' });
  return { b, runner, id: t.id, ...r };
}

describe('RunningPanel', () => {
  it('asks before stopping and stops only on confirm', async () => {
    const { b, id } = await setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    const dlg = screen.getByRole('dialog');
    expect(dlg.textContent).toMatch(/The work is kept/);
    await fireEvent.click(screen.getByRole('button', { name: 'Keep running' }));
    expect(b.count('RunService.Stop')).toBe(0);
    await fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Stop task' }));
    await waitFor(() => expect(b.argsOf('RunService.Stop')).toEqual([[id]]));
  });

  it('says when an injected prompt went into the live session', async () => {
    const { b, id } = await setup('live');
    await fireEvent.input(screen.getByRole('textbox', { name: 'Prompt to inject' }), { target: { value: 'hurry' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Inject' }));
    await screen.findByText('Delivered into the live session');
    expect(b.argsOf('RunService.Inject')).toEqual([[id, 'hurry']]);
  });

  it('shows the feed and unsubscribes on destroy', async () => {
    const { b, id, unmount } = await setup();
    await waitFor(() => expect(screen.getAllByRole('listitem').length).toBeGreaterThan(3));
    expect(b.listenerCount(`task:output:${id}`)).toBe(1);
    unmount();
    expect(b.listenerCount(`task:output:${id}`)).toBe(0);
  });
});

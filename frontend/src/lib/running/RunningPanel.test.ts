import { describe, expect, it } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/svelte';
import { StubBackend } from '../backend/stub';
import { demo, feedItems, runnerStatus } from '../backend/stub-data';
import type { InjectDelivery } from '../backend/types';
import { RunnerStore } from './runner.svelte';
import RunningPanel from './RunningPanel.svelte';

async function setup(delivery: InjectDelivery = 'next_step', fix = 0) {
  const t = demo('Add dark mode to the settings page');
  const status = runnerStatus([t]);
  // A fix run, as Go's Status reports it: iteration 2 past 1 planned run, fix 1.
  if (fix) status.running = status.running.map((r) => ({ ...r, iteration: 2, iterations: 1, fix }));
  const b = new StubBackend({
    'RunService.Status': () => status,
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
  it('names a fix run in its header, not "iteration 2/1"', async () => {
    await setup('next_step', 1);
    const progress = screen.getByLabelText('Progress');
    await waitFor(() => expect(progress.textContent).toContain('fix run 1 · iteration 2'));
    expect(progress.textContent).not.toMatch(/2\/1|of 1/);
  });

  it('names a planned run with its count', async () => {
    await setup();
    await waitFor(() => expect(screen.getByLabelText('Progress').textContent).toMatch(/\brun 1\b/));
    expect(screen.getByLabelText('Progress').textContent).not.toContain('1/');
  });

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

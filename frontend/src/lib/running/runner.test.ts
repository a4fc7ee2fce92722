import { describe, expect, it } from 'vitest';
import { StubBackend } from '../backend/stub';
import { demo, runnerStatus } from '../backend/stub-data';
import { callError, statusError } from '../backend/goldens';
import { RunnerStore, compact, elapsed } from './runner.svelte';

const running = demo('Add dark mode to the settings page');

describe('RunnerStore', () => {
  it('stops the running task and follows runner:status', async () => {
    let status = runnerStatus([running]);
    const b = new StubBackend({
      'RunService.Status': () => status,
      'RunService.Stop': (id) => {
        // Stopped, the task no longer runs; stopping it again is refused as Go refuses it.
        if (!status.running.some((r) => r.task_id === id)) throw new Error(statusError('stop', 'stopped'));
        status = runnerStatus([]);
      },
      'RunService.SetEnabled': (on) => (status = runnerStatus([], { enabled: on })),
    });
    const s = new RunnerStore(b);
    const off = s.subscribe();
    await s.load();
    const r = s.status.running[0];
    expect(r.role).toBe('developer');
    await s.stop(r.task_id);
    expect(b.argsOf('RunService.Stop')).toEqual([[r.task_id]]);
    await s.load();
    expect(s.status.running).toHaveLength(0);
    await expect(s.stop(r.task_id)).rejects.toThrow(statusError('stop', 'stopped'));
    await s.setEnabled(false);
    expect(s.status.enabled).toBe(false);
    b.emit('runner:status', runnerStatus([running], { enabled: true }));
    expect(s.status.enabled).toBe(true);
    expect(s.status.running.map((x) => x.task_id)).toEqual([running.id]);
    off();
    expect(b.listenerCount('runner:status')).toBe(0);
  });

  it('injects and reports where the prompt went', async () => {
    const b = new StubBackend({ 'RunService.Status': () => runnerStatus([running]), 'RunService.Inject': () => ({ injection_id: 'inj1', delivery: 'live' }) });
    const s = new RunnerStore(b);
    await s.load();
    const id = s.status.running[0].task_id;
    expect(await s.inject(id, 'use sqlite')).toMatchObject({ delivery: 'live' });
    await expect(s.inject(id, '   ')).rejects.toThrow('Write something to send');
    expect(b.argsOf('RunService.Inject')).toEqual([[id, 'use sqlite']]);
  });

  it('shows a tool paused by a usage limit and resumes it early', async () => {
    const paused = [{ tool: 'claude-code', until: '2030-01-01T14:05:00Z', text: 'claude-code paused until 14:05 (usage limit)' }];
    const b = new StubBackend({ 'RunService.Status': () => runnerStatus([], { paused }), 'RunService.ResumeTool': () => runnerStatus([]) });
    const s = new RunnerStore(b);
    await s.load();
    expect(s.status.paused).toEqual(paused);
    await s.resumeTool('claude-code');
    expect(s.status.paused ?? []).toHaveLength(0);
    const notPaused = callError('resume: a tool that is not paused');
    b.on('RunService.ResumeTool', () => {
      throw new Error(notPaused);
    });
    await s.resumeTool('claude-code');
    expect(s.error).toBe(notPaused);
  });

  it('formats time and counts', () => {
    expect(elapsed(65_000)).toBe('1:05');
    expect(elapsed(3_723_000)).toBe('1:02:03');
    expect(elapsed(-5)).toBe('0:00');
    expect(compact(48_200)).toBe('48.2k');
    expect(compact(1_250_000)).toBe('1.3M');
    expect(compact(999)).toBe('999');
  });
});

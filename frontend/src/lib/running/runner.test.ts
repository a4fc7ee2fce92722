import { describe, expect, it } from 'vitest';
import { FakeBackend } from '../backend/fake';
import { RunnerStore, compact, elapsed } from './runner.svelte';

describe('RunnerStore', () => {
  it('stops the running task and follows runner:status', async () => {
    const b = new FakeBackend();
    const s = new RunnerStore(b);
    const off = s.subscribe();
    await s.load();
    const r = s.status.running[0];
    expect(r.role).toBe('developer');
    await s.stop(r.task_id);
    expect(s.status.running).toHaveLength(0);
    expect(b.tasks.get(r.task_id)!.status).toBe('stopped');
    await expect(s.stop(r.task_id)).rejects.toThrow('This task was stopped: only ongoing tasks can be stopped.');
    await s.setEnabled(false);
    expect(s.status.enabled).toBe(false);
    off();
  });

  it('injects and reports where the prompt went', async () => {
    const b = new FakeBackend({ injectDelivery: 'live' });
    const s = new RunnerStore(b);
    await s.load();
    const id = s.status.running[0].task_id;
    expect(await s.inject(id, 'use sqlite')).toMatchObject({ delivery: 'live' });
    await expect(s.inject(id, '   ')).rejects.toThrow('Write something to send');
    expect(b.tasks.get(id)!.injections.map((i) => i.text)).toEqual(['use sqlite']);
  });

  it('shows a tool paused by a usage limit and resumes it early', async () => {
    const b = new FakeBackend();
    b.pausedTools.set('claude-code', '2030-01-01T14:05:00Z');
    const s = new RunnerStore(b);
    await s.load();
    expect(s.status.paused).toEqual([{ tool: 'claude-code', until: '2030-01-01T14:05:00Z', text: 'claude-code paused until 14:05 (usage limit)' }]);
    await s.resumeTool('claude-code');
    expect(s.status.paused ?? []).toHaveLength(0);
    await s.resumeTool('claude-code');
    expect(s.error).toContain('The tool claude-code is not paused');
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

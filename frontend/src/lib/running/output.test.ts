import { describe, expect, it } from 'vitest';
import { StubBackend } from '../backend/stub';
import { feedItems } from '../backend/stub-data';
import { notFoundError } from '../backend/goldens';
import { OutputStore } from './output.svelte';
import type { FeedItem, OutputSnapshot } from '../backend/types';

function manual() {
  const queue: (() => void)[] = [];
  let t = 0;
  return {
    schedule: (cb: () => void) => queue.push(cb),
    now: () => t,
    advance(ms: number) {
      t += ms;
      const q = queue.splice(0);
      q.forEach((cb) => cb());
    },
    pending: () => queue.length,
  };
}

const base = (seq: number) => ({ seq, at: '2026-11-30T00:00:00Z', role: 'developer' as const });
const item = (seq: number, text = `t${seq}`): FeedItem => ({ ...base(seq), kind: 'text', data: { text } });
const call = (seq: number, call_id: string): FeedItem => ({ ...base(seq), kind: 'tool_call', data: { tool: 'Bash', call_id, input: 'ls' } });
const result = (seq: number, call_id: string, output: string): FeedItem => ({ ...base(seq), kind: 'tool_result', data: { call_id, output } });

const ID = 't01';
/** A backend whose running task ID has 8 feed items and some terminal text so far. */
const running = () => {
  const snapshot: OutputSnapshot = { task_id: ID, feed: feedItems(8), terminal: '\x1b[32mok\x1b[0m  pkg\r\n', transcript_bytes: 20 };
  return new StubBackend({ 'RunService.Output': () => snapshot });
};
/** A backend with no output yet. */
const quiet = () => new StubBackend({ 'RunService.Output': (id) => ({ task_id: id, feed: [], terminal: '', transcript_bytes: 0 }) });

describe('OutputStore', () => {
  it('loads the snapshot, then applies streamed batches', async () => {
    const b = running();
    const clock = manual();
    const s = new OutputStore(b, ID, clock);
    await s.start();
    const n = s.feed.length;
    expect(n).toBeGreaterThan(0);
    b.emit(`task:output:${ID}`, { task_id: ID, feed: feedItems(4, 8), terminal: 'more\r\n' });
    expect(s.feed.length).toBe(n); // not yet flushed
    clock.advance(17);
    expect(s.feed.length).toBeGreaterThan(n);
    s.stop();
    expect(b.listenerCount(`task:output:${ID}`)).toBe(0);
  });

  it('coalesces many batches into one flush per frame and at most 60 per second', async () => {
    const b = quiet();
    const clock = manual();
    const s = new OutputStore(b, 'x', clock);
    await s.start();
    let seq = 0;
    // 1000 batches over one simulated second, a frame scheduler running at 240 Hz.
    for (let ms = 0; ms < 1000; ms++) {
      s.push({ task_id: 'x', feed: [item(++seq)], terminal: 'a' });
      if (ms % 4 === 3) clock.advance(4);
    }
    clock.advance(20);
    expect(s.flushes).toBeLessThanOrEqual(61);
    expect(s.flushes).toBeGreaterThan(30);
    expect(s.feed.length).toBe(1000);
  });

  it('folds a tool result into its call and keeps the feed bounded', async () => {
    const b = quiet();
    const clock = manual();
    const s = new OutputStore(b, 'x', { ...clock, maxFeed: 3 });
    await s.start();
    s.push({ task_id: 'x', feed: [item(1), call(2, 'c1'), result(3, 'c1', 'ok')], terminal: '' });
    clock.advance(20);
    expect(s.feed.map((f) => f.seq)).toEqual([1, 2]);
    expect(s.feed[1].result?.data.output).toBe('ok');
    s.push({ task_id: 'x', feed: [item(4), item(5), call(6, 'c2')], terminal: '' });
    clock.advance(20);
    expect(s.feed.map((f) => f.seq)).toEqual([4, 5, 6]);
    s.push({ task_id: 'x', feed: [result(7, 'c2', 'done')], terminal: '' });
    clock.advance(20);
    expect(s.feed[2].result?.data.output).toBe('done');
  });

  it('drops duplicates already in the snapshot and writes terminal text to sinks', async () => {
    const b = running();
    const clock = manual();
    const id = ID;
    const s = new OutputStore(b, id, clock);
    const got: string[] = [];
    s.onTerminal((t) => got.push(t));
    await s.start();
    const last = s.feed.at(-1)!.seq;
    s.push({ task_id: id, feed: [item(last, 'dup'), item(last + 1)], terminal: '\x1b[31mred\x1b[0m' });
    clock.advance(20);
    expect(s.feed.filter((f) => f.kind === 'text' && f.data.text === 'dup')).toHaveLength(0);
    expect(s.feed.at(-1)!.seq).toBe(last + 1);
    expect(got.at(-1)).toBe('\x1b[31mred\x1b[0m');
    expect(got[0].length).toBeGreaterThan(0);
  });

  it('reports a failed snapshot as a message', async () => {
    const b = new StubBackend();
    b.failNext('RunService.Output', notFoundError('task', 'nope'));
    const s = new OutputStore(b, 'nope', manual());
    await s.start();
    expect(s.error).toBe(`Could not load the output: ${notFoundError('task', 'nope')}`);
  });
});

describe('OutputStore terminal tail', () => {
  it('keeps only the last TERMINAL_TAIL_MAX characters', async () => {
    const b = quiet();
    const clock = manual();
    const s = new OutputStore(b, 'x', clock);
    await s.start();
    const chunk = 'a'.repeat(300_000);
    for (let i = 0; i < 10; i++) {
      s.push({ task_id: 'x', feed: [], terminal: chunk + String(i) });
      clock.advance(20);
    }
    const tail = s.terminalTail;
    expect(tail.length).toBeLessThanOrEqual(OutputStore.TERMINAL_TAIL_MAX + 300_001);
    expect(tail.length).toBeGreaterThanOrEqual(OutputStore.TERMINAL_TAIL_MAX - 300_001);
    expect(tail.endsWith('9')).toBe(true);
  });
});

describe('OutputStore.clip', () => {
  it('passes short text and keeps the end of long text from a line start', () => {
    expect(OutputStore.clip('abc', 10)).toBe('abc');
    const text = 'x'.repeat(50) + '\n' + 'tail line\n';
    const out = OutputStore.clip(text, 15);
    expect(out.endsWith('tail line\n')).toBe(true);
    expect(out).not.toContain('xxxx');
    expect(out).toContain('skipped in the live view');
  });

  it('writes at most one clipped flush to the terminal however much arrived', async () => {
    const b = quiet();
    const clock = manual();
    const s = new OutputStore(b, 'x', clock);
    const got: string[] = [];
    s.onTerminal((t) => got.push(t));
    await s.start();
    for (let i = 0; i < 100; i++) s.push({ task_id: 'x', feed: [], terminal: 'y'.repeat(10_000) + '\n' });
    clock.advance(20);
    expect(got.at(-1)!.length).toBeLessThan(OutputStore.TERMINAL_FLUSH_MAX + 200);
    expect(s.terminalTail.length).toBe(100 * 10_001);
  });
});

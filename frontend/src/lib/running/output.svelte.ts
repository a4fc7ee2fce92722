import { taskOutputEvent, type Backend } from '../backend/backend';
import { run } from '../busy';
import type { FeedItem, OutputBatch } from '../backend/types';

/** A feed entry as shown: a tool call carries its folded result. */
export type FeedEntry = FeedItem & { result?: FeedItem<'tool_result'> };

export interface OutputOptions {
  /** Most entries kept in the feed (older ones drop off the top). */
  maxFeed?: number;
  /** Schedules a flush; defaults to requestAnimationFrame (≤ one per frame). */
  schedule?: (cb: () => void) => unknown;
  /** Fewest milliseconds between two flushes (caps at 60/s on fast displays). */
  minInterval?: number;
  now?: () => number;
}

/**
 * Live output of one running task. Events are buffered and applied at most once
 * per frame (and at most 60 times a second), so a 10 MB/s stream costs a
 * bounded number of repaints. Terminal text goes to `onTerminal` in the same flush.
 */
export class OutputStore {
  feed = $state.raw<FeedEntry[]>([]);
  error = $state('');
  transcriptBytes = $state(0);
  /** How many flushes reached the UI (for the rate measurement). */
  flushes = 0;
  // The last ≤ TERMINAL_TAIL_MAX characters of terminal text as chunks, so a
  // terminal opened later can replay it without copying a megabyte per flush.
  private tail: string[] = [];
  private tailLen = 0;

  private pendingFeed: FeedItem[] = [];
  private pendingTerm: string[] = [];
  private scheduled = false;
  private lastSeq = 0;
  private lastFlush = -Infinity;
  private callIndex = new Map<string, number>();
  private off: (() => void) | undefined;
  private termSinks = new Set<(text: string) => void>();
  private readonly maxFeed: number;
  private readonly schedule: (cb: () => void) => unknown;
  private readonly minInterval: number;
  private readonly now: () => number;
  private stopped = false;
  static readonly TERMINAL_TAIL_MAX = 1 << 20;
  /** Most terminal text written to the live terminal per flush; the rest is in the full transcript. */
  static readonly TERMINAL_FLUSH_MAX = 128 * 1024;

  /**
   * Keeps the end of `text` when it is longer than `max` (from a line start when
   * one is near), with a dim note saying how much was skipped in the live view.
   */
  static clip(text: string, max: number): string {
    if (text.length <= max) return text;
    let cut = text.length - max;
    const nl = text.indexOf('\n', cut);
    if (nl >= 0 && nl - cut < 4096) cut = nl + 1;
    return `\r\n\x1b[2m… ${(cut / 1024).toFixed(0)} KiB skipped in the live view (Full transcript has everything)\x1b[0m\r\n` + text.slice(cut);
  }

  constructor(
    private readonly backend: Backend,
    readonly taskId: string,
    opts: OutputOptions = {},
  ) {
    this.maxFeed = opts.maxFeed ?? 2000;
    this.schedule = opts.schedule ?? ((cb) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(cb) : setTimeout(cb, 16)));
    this.minInterval = opts.minInterval ?? 1000 / 60;
    this.now = opts.now ?? (() => performance.now());
  }

  /** Subscribes first (so nothing is missed), then loads the snapshot. */
  async start(): Promise<void> {
    this.off = this.backend.listen(taskOutputEvent(this.taskId), (b) => this.push(b));
    const r = await run(this, () => this.backend.invoke('RunService.Output', this.taskId), { fail: 'Could not load the output' });
    if (!r.ok || this.stopped) return;
    const snap = r.value;
    const early = this.pendingFeed;
    this.pendingFeed = [];
    this.pendingTerm = [];
    this.apply(snap.feed ?? [], true);
    this.tail = [];
    this.tailLen = 0;
    this.keep(snap.terminal ?? '');
    this.transcriptBytes = snap.transcript_bytes;
    for (const s of this.termSinks) s(this.terminalTail);
    // Batches that arrived while the snapshot was loading and are newer than it.
    this.apply(early.filter((f) => f.seq > this.lastSeq), false);
  }

  /** The retained terminal text (at most TERMINAL_TAIL_MAX characters). */
  get terminalTail(): string {
    if (this.tail.length > 1) this.tail = [this.tail.join('')];
    return this.tail[0] ?? '';
  }

  private keep(text: string): void {
    if (!text) return;
    this.tail.push(text);
    this.tailLen += text.length;
    while (this.tailLen - this.tail[0].length >= OutputStore.TERMINAL_TAIL_MAX) this.tailLen -= this.tail.shift()!.length;
    if (this.tailLen > 2 * OutputStore.TERMINAL_TAIL_MAX) {
      const joined = this.tail.join('').slice(-OutputStore.TERMINAL_TAIL_MAX);
      this.tail = [joined];
      this.tailLen = joined.length;
    }
  }

  stop(): void {
    this.stopped = true;
    this.off?.();
    this.off = undefined;
    this.termSinks.clear();
  }

  /** Registers a terminal writer; returns its removal. */
  onTerminal(sink: (text: string) => void): () => void {
    this.termSinks.add(sink);
    return () => this.termSinks.delete(sink);
  }

  /** Queues a batch; the UI sees it at the next flush. */
  push(b: OutputBatch): void {
    if (this.stopped) return;
    for (const f of b.feed ?? []) this.pendingFeed.push(f);
    if (b.terminal) {
      this.pendingTerm.push(b.terminal);
      this.transcriptBytes += b.terminal.length;
    }
    this.request();
  }

  private request(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }

  /** Applies everything queued; runs at most every `minInterval` ms. */
  flush(): void {
    this.scheduled = false;
    if (this.stopped) return;
    const t = this.now();
    if (t - this.lastFlush < this.minInterval) {
      this.request();
      return;
    }
    this.lastFlush = t;
    if (!this.pendingFeed.length && !this.pendingTerm.length) return;
    this.flushes++;
    const feed = this.pendingFeed;
    this.pendingFeed = [];
    this.apply(feed.filter((f) => f.seq > this.lastSeq), false);
    if (this.pendingTerm.length) {
      const text = this.pendingTerm.join('');
      this.pendingTerm = [];
      this.keep(text);
      const live = OutputStore.clip(text, OutputStore.TERMINAL_FLUSH_MAX);
      for (const s of this.termSinks) s(live);
    }
  }

  private apply(items: FeedItem[], reset: boolean): void {
    let next = reset ? [] : this.feed.slice();
    if (reset) this.callIndex.clear();
    for (const it of items) {
      if (it.seq > this.lastSeq) this.lastSeq = it.seq;
      if (it.kind === 'tool_result' && it.data.call_id) {
        const at = this.callIndex.get(it.data.call_id);
        if (at !== undefined && at < next.length) {
          next[at] = { ...next[at], result: it };
          continue;
        }
      }
      if (it.kind === 'tool_call' && it.data.call_id) this.callIndex.set(it.data.call_id, next.length);
      next.push(it);
    }
    if (next.length > this.maxFeed) {
      const cut = next.length - this.maxFeed;
      next = next.slice(cut);
      const rebased = new Map<string, number>();
      for (const [k, v] of this.callIndex) if (v >= cut) rebased.set(k, v - cut);
      this.callIndex = rebased;
    }
    this.feed = next;
  }
}

import type { Backend } from '../backend/backend';
import { run } from '../busy';
import { ACTIVE_QUEUE_STATES, EVENT_NAMES, type QueueState } from '../backend/types';
import type { QueueItem } from '../backend/queue-api';

const ACTIVE: ReadonlySet<QueueState> = new Set(ACTIVE_QUEUE_STATES);

/**
 * The merge queue as the Merge queue screen shows it: the active entries in
 * landing order, then the landed and undone ones; reloads on `queue:changed`
 * (an entry added, moved, landed or parked) and `tasks:changed`.
 */
export class QueueStore {
  items = $state<QueueItem[]>([]);
  error = $state('');
  notice = $state('');
  busy = $state(false);
  loaded = $state(false);
  active = $derived(this.items.filter((e) => ACTIVE.has(e.state)));
  history = $derived(this.items.filter((e) => !ACTIVE.has(e.state)));
  private seq = 0;

  constructor(private readonly backend: Backend) {}

  subscribe(): () => void {
    const offs = [this.backend.listen(EVENT_NAMES.queueChanged, () => void this.load()), this.backend.listen(EVENT_NAMES.tasksChanged, () => void this.load())];
    return () => offs.forEach((off) => off());
  }

  async load(): Promise<void> {
    const n = ++this.seq;
    const r = await run(this, () => this.backend.invoke('MergeQueueService.List', true), { fail: 'Could not load the merge queue', current: () => n === this.seq });
    if (r.ok) {
      this.items = r.value ?? [];
      this.loaded = true;
    }
  }

  /** Moves an active entry by delta places (-1 up, +1 down). */
  async move(taskId: string, delta: number): Promise<void> {
    const at = this.active.findIndex((e) => e.task_id === taskId);
    if (at < 0) return;
    const to = at + delta;
    if (to < 0 || to >= this.active.length) return;
    await this.act(() => this.backend.invoke('MergeQueueService.Move', taskId, to), '');
  }

  async remove(e: QueueItem): Promise<void> {
    const r = await this.act(() => this.backend.invoke('MergeQueueService.Remove', e.task_id), '');
    if (r === false) this.notice = `“${e.title || e.task_id}” is landing now: it is removed before ${e.target} moves.`;
    else if (r === true) this.notice = `Removed “${e.title || e.task_id}” from the merge queue.`;
  }

  async sendBack(e: QueueItem): Promise<void> {
    await this.act(
      () => this.backend.invoke('MergeQueueService.SendBack', e.task_id),
      `Sent “${e.title || e.task_id}” back to the developer; it is queued again on ${e.target} when it is done.`,
    );
  }

  private async act<T>(fn: () => Promise<T>, notice: string): Promise<T | undefined> {
    this.notice = '';
    const r = await run(this, fn, { flag: 'busy' });
    if (!r.ok) return undefined;
    if (notice) this.notice = notice;
    await this.load();
    return r.value;
  }
}

/** How an entry's state reads on the screen. */
export function stateLabel(e: QueueItem): string {
  switch (e.state) {
    case 'queued':
      return e.reason ? 'waiting' : 'queued';
    case 'landing':
      return 'landing…';
    case 'blocked':
      return 'parked';
    case 'returned':
      return 'sent back';
    case 'landed':
      return 'landed';
    case 'undone':
      return 'undone';
  }
}

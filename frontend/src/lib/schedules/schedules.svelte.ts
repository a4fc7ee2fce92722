import type { Backend } from '../backend/backend';
import { errorMessage } from '../backend/backend';
import { EVENT_NAMES, type TaskView } from '../backend/types';
import type { CronPreview, ScheduleInput, ScheduleRun, ScheduleView } from '../backend/schedules-api';
import { normalizeTask } from '../backend/normalize';
import { run } from '../busy';

/**
 * The recurring tasks and the tasks waiting for their start time, as the
 * Schedules screen and the New task form's Repeat option use them. A fire
 * queues a task, so every tasks:changed reloads the lists.
 */
export class ScheduleStore {
  schedules = $state<ScheduleView[]>([]);
  /** Pending tasks that wait for a start time still ahead, the soonest first. */
  scheduled = $state<TaskView[]>([]);
  loaded = $state(false);
  error = $state('');
  /** The id of the schedule an action runs on now ("" none). */
  busyId = $state('');
  /** What the last action did ("Queued …"), for a status line. */
  note = $state('');

  constructor(private readonly backend: Backend) {}

  /** Reloads on tasks:changed; returns the unsubscribe function. */
  subscribe(): () => void {
    return this.backend.listen(EVENT_NAMES.tasksChanged, () => void this.load());
  }

  async load(): Promise<void> {
    const r = await run(this, async () => {
      const [s, t] = await Promise.all([this.backend.invoke('ScheduleService.List'), this.backend.invoke('ScheduleService.Scheduled')]);
      return { s: s ?? [], t: (t ?? []).map(normalizeTask) };
    }, { fail: 'Could not load schedules' });
    if (r.ok) {
      this.schedules = r.value.s;
      this.scheduled = r.value.t;
    }
    this.loaded = true;
  }

  /** Checks a cron expression; throws the backend's sentence for a bad one. */
  async preview(cron: string, tz: string): Promise<CronPreview> {
    try {
      return await this.backend.invoke('ScheduleService.Preview', cron, tz);
    } catch (e) {
      throw new Error(errorMessage(e));
    }
  }

  /** Stores a recurring task; throws the readable message on failure. */
  async create(input: ScheduleInput): Promise<ScheduleView> {
    let sc: ScheduleView;
    try {
      sc = await this.backend.invoke('ScheduleService.Create', input);
    } catch (e) {
      throw new Error(errorMessage(e));
    }
    await this.load();
    return sc;
  }

  /** Replaces a schedule's name, expression, zone and task; throws the readable message on failure. */
  async update(id: string, input: ScheduleInput): Promise<ScheduleView> {
    let sc: ScheduleView;
    try {
      sc = await this.backend.invoke('ScheduleService.Update', id, input);
    } catch (e) {
      throw new Error(errorMessage(e));
    }
    this.note = `Saved “${sc.display}”.`;
    await this.load();
    return sc;
  }

  /** A schedule's newest fires; throws the readable message on failure. */
  async log(id: string): Promise<ScheduleRun[]> {
    try {
      return (await this.backend.invoke('ScheduleService.Log', id)) ?? [];
    } catch (e) {
      throw new Error(errorMessage(e));
    }
  }

  private async act<T>(id: string, fn: () => Promise<T>, done: (v: T) => string): Promise<boolean> {
    if (this.busyId) return false;
    this.busyId = id;
    this.note = '';
    try {
      const r = await run(this, fn);
      if (r.ok) this.note = done(r.value);
      await this.load();
      return r.ok;
    } finally {
      this.busyId = '';
    }
  }

  setPaused(sc: ScheduleView, paused: boolean): Promise<boolean> {
    return this.act(sc.id, () => this.backend.invoke('ScheduleService.SetPaused', sc.id, paused), () => (paused ? `Paused “${sc.display}”.` : `Resumed “${sc.display}”.`));
  }

  remove(sc: ScheduleView): Promise<boolean> {
    return this.act(sc.id, () => this.backend.invoke('ScheduleService.Delete', sc.id), () => `Deleted “${sc.display}”; the tasks it queued are kept.`);
  }

  runNow(sc: ScheduleView): Promise<boolean> {
    return this.act(sc.id, () => this.backend.invoke('ScheduleService.RunNow', sc.id), (t) => `Queued “${t.title || t.prompt.split('\n')[0]}” from “${sc.display}”.`);
  }
}

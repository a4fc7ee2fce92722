// Fake ScheduleService (issue 21) for tests and the browser build: schedules
// kept in memory, fired only by RunNow (the fake has no runner loop).
import type { CreateTaskInput, TaskDetail, TaskView } from './types';
import type { ScheduleRun, ScheduleView } from './schedules-api';
import { describeCron, parseCron } from './fake-cron';
import { notFound } from './fake-errors';

/** What the fake schedules need from FakeBackend. */
export interface ScheduleHost {
  readonly tasks: Map<string, TaskDetail>;
  now(): Date;
  /** TaskService.Create of the fake (validates and stores a pending task). */
  createTask(input: CreateTaskInput): TaskView;
  workDir(): string;
}

const all = new WeakMap<ScheduleHost, Map<string, ScheduleView>>();
const logs = new WeakMap<ScheduleHost, Map<string, ScheduleRun[]>>();

function logOf(host: ScheduleHost, id: string): ScheduleRun[] {
  let m = logs.get(host);
  if (!m) logs.set(host, (m = new Map()));
  let l = m.get(id);
  if (!l) m.set(id, (l = []));
  return l;
}

function schedules(host: ScheduleHost): Map<string, ScheduleView> {
  let m = all.get(host);
  if (!m) all.set(host, (m = new Map()));
  return m;
}

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

function nextFire(sc: ScheduleView, from: Date): string | undefined {
  if (sc.paused) return undefined;
  const n = parseCron(sc.cron, sc.tz).next(from);
  return n ? iso(n) : undefined;
}

function view(host: ScheduleHost, sc: ScheduleView): ScheduleView {
  const out = structuredClone(sc);
  if (sc.last_task) {
    const t = host.tasks.get(sc.last_task.id);
    if (t) out.last_task = { id: t.id, title: t.title || t.prompt.split('\n')[0], status: t.status };
    else delete out.last_task;
  }
  return out;
}

function get(host: ScheduleHost, id: string): ScheduleView {
  const sc = schedules(host).get(id);
  if (!sc) throw new Error(notFound('schedule', id));
  return sc;
}

/** The ScheduleService handlers of a FakeBackend. */
export function scheduleHandlers(host: ScheduleHost) {
  let counter = 0;
  const order = (a: ScheduleView, b: ScheduleView) => Number(a.paused) - Number(b.paused) || (a.next_fire ?? '~').localeCompare(b.next_fire ?? '~') || a.created_at.localeCompare(b.created_at);
  return {
    'ScheduleService.List': () => [...schedules(host).values()].sort(order).map((s) => view(host, s)),
    'ScheduleService.Scheduled': (): TaskView[] => {
      const now = iso(host.now());
      return [...host.tasks.values()]
        .filter((t) => t.status === 'pending' && t.not_before && t.not_before > now)
        .sort((a, b) => a.not_before!.localeCompare(b.not_before!))
        .map((t) => {
          const { command: _c, command_text: _ct, attachments: _a, usage_by_role: _ur, tools: _t, answers: _an, reports: _r, injections: _i, events: _e, log: _l, usage: _u, ...v } = t;
          return v;
        });
    },
    'ScheduleService.Preview': (cron: string, tz: string) => {
      const spec = parseCron(cron, tz);
      const next: string[] = [];
      let t: Date | null = host.now();
      while (next.length < 3 && (t = spec.next(t))) next.push(iso(t));
      if (!next.length) throw new Error(`The cron expression ${cron} never fires.`);
      return { cron, tz: tz || 'UTC', text: describeCron(cron), next };
    },
    'ScheduleService.Create': (input: { name: string; cron: string; tz: string; task: CreateTaskInput }): ScheduleView => {
      if (input.task.attachments?.length) throw new Error('A recurring task cannot carry attachments: add them to each task it queues.');
      if (input.task.not_before) throw new Error('A recurring task starts at its fires: give a start time or a repeat, not both.');
      parseCron(input.cron, input.tz);
      if (!input.task.prompt.trim()) throw new Error('Prompt is empty.');
      const now = host.now();
      const t = input.task;
      const sc: ScheduleView = {
        id: `s${now.getTime().toString(36)}${(counter++).toString(36).padStart(2, '0')}`,
        name: input.name.trim(),
        display: input.name.trim() || t.title.trim() || t.prompt.split('\n')[0],
        cron: input.cron.trim(),
        cron_text: describeCron(input.cron),
        tz: input.tz.trim() || 'UTC',
        paused: false,
        template: { title: t.title.trim(), prompt: t.prompt, priority: t.priority, base: t.base, labels: t.labels, runs: t.runs || 1, repo: host.workDir(), command: t.command ?? '' },
        created_at: iso(now),
      };
      sc.next_fire = nextFire(sc, now);
      schedules(host).set(sc.id, sc);
      return view(host, sc);
    },
    'ScheduleService.SetPaused': (id: string, paused: boolean): ScheduleView => {
      const sc = get(host, id);
      sc.paused = paused;
      sc.next_fire = nextFire(sc, host.now());
      if (!sc.next_fire) delete sc.next_fire;
      return view(host, sc);
    },
    'ScheduleService.Delete': (id: string): void => {
      get(host, id);
      schedules(host).delete(id);
    },
    'ScheduleService.RunNow': (id: string): TaskView => {
      const sc = get(host, id);
      if (sc.paused) throw new Error(`Schedule ${sc.display} is paused: resume it to run it now.`);
      const { title, prompt, priority, base, labels, runs, command } = sc.template;
      const t = host.createTask({ title, prompt, priority, base, labels, runs, command });
      sc.last_fire = iso(host.now());
      sc.last_task = { id: t.id, title: t.title, status: t.status };
      const log = logOf(host, id);
      log.unshift({ id: log.length + 1, schedule_id: id, at: sc.last_fire, due: sc.last_fire, outcome: 'queued', task_id: t.id, note: 'run now from the window' });
      return t;
    },
    'ScheduleService.Update': (id: string, input: { name: string; cron: string; tz: string; task: CreateTaskInput }): ScheduleView => {
      const sc = get(host, id);
      if (input.task.attachments?.length || input.task.not_before) throw new Error('A recurring task carries no attachments and no start time.');
      parseCron(input.cron, input.tz);
      const t = input.task;
      if (!t.prompt.trim()) throw new Error('Prompt is empty.');
      Object.assign(sc, {
        name: input.name.trim(),
        display: input.name.trim() || t.title.trim() || t.prompt.split('\n')[0],
        cron: input.cron.trim(),
        cron_text: describeCron(input.cron),
        tz: input.tz.trim() || 'UTC',
        template: { ...sc.template, title: t.title.trim(), prompt: t.prompt, priority: t.priority, base: t.base, labels: t.labels, runs: t.runs || 1, command: t.command ?? '' },
      });
      sc.next_fire = nextFire(sc, host.now());
      if (!sc.next_fire) delete sc.next_fire;
      return view(host, sc);
    },
    'ScheduleService.Log': (id: string): ScheduleRun[] => {
      get(host, id);
      return logOf(host, id).slice(0, 20);
    },
  };
}

import type { Backend } from './backend';
import type { Api } from './api';
import type { FrontendError, UIRequest, TaskDetail, TaskView, Settings, Command, RunnerStatus, OutputSnapshot, FeedItem, ToolHealth, InjectDelivery, TypedEvent } from './types';
import { blankDetail, defaultSettings, seedTasks, MODELS, usageFor } from './fake-data';
import { budgetReport } from './fake-budget';
import { FakeStream } from './fake-stream';
import { validateSettings } from './fake-validate';
import { fakeDiff, fakePatch } from './fake-diff';
import { reviewHandlers } from './fake-review';
import { queueHandlers } from './fake-queue';

import { scheduleHandlers } from './fake-schedules';
import { duplicateMessage, notFound, statusMessage, unknownBaseMessage } from './fake-errors';

type Handlers = { [K in keyof Api]: (...args: Parameters<Api[K]>) => Awaited<ReturnType<Api[K]>> };

export interface FakeOptions {
  /** Seed realistic demo tasks (default true). */
  seed?: boolean;
  /** Emit streaming output for the ongoing task every `streamMs` ms; 0 disables (default 0). */
  streamMs?: number;
  now?: () => Date;
  injectDelivery?: InjectDelivery;
}

const TERMINAL_KEEP = 1 << 20;
/** Frontmatter keys a task file may have (snake_case and the earlier camelCase). */
const KNOWN_KEYS = new Set(['id', 'origin_id', 'title', 'status', 'prev_status', 'priority', 'skip', 'labels', 'command', 'runs', 'completed_runs', 'completedRuns', 'base', 'repo', 'questions', 'tools', 'attachments', 'usage', 'tokenUsage', 'branch', 'base_sha', 'head_sha', 'worktree_path', 'error', 'created_at', 'createdAt', 'updated_at', 'updatedAt', 'started_at', 'finished_at', 'extra']);
const FEED_KEEP = 2000;

/** In-memory implementation of every bound method, for tests and the browser build. */
export class FakeBackend implements Backend {
  readonly tasks = new Map<string, TaskDetail>();
  readonly calls: { method: string; args: unknown[] }[] = [];
  /** Requests NavService.Ready hands out (what the Go side queued before the window painted). */
  pendingNav: UIRequest[] = [];
  /** The requests the front end reported shown (NavService.Shown), in order. */
  readonly shownNav: { seq: number; view: string }[] = [];
  /** Front-end errors reported through DiagService.ReportError. */
  readonly frontendErrors: FrontendError[] = [];
  settings: Settings = defaultSettings();
  commands: Command[] = [];
  enabled = true;
  /** Tools paused by a usage limit (tool → until, ISO). */
  pausedTools = new Map<string, string>();
  private listeners = new Map<string, Set<(p: unknown) => void>>();
  private failures = new Map<string, string>();
  private streams = new Map<string, { gen: FakeStream; feed: FeedItem[]; terminal: string; bytes: number }>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private counter = 0;
  /** Origin ids of imported files → the task first imported from each. */
  private readonly origins = new Map<string, string>();
  private readonly now: () => Date;
  private readonly injectDelivery: InjectDelivery;

  constructor(opts: FakeOptions = {}) {
    this.now = opts.now ?? (() => new Date());
    this.injectDelivery = opts.injectDelivery ?? 'next_step';
    if (opts.seed ?? true) {
      for (const t of seedTasks(this.now())) this.tasks.set(t.id, t);
      const ts = this.stamp();
      this.commands = [
        { id: 'cmd1', name: 'add-tests', body: 'Add table tests for every exported function you touch.', updated_at: ts },
        { id: 'cmd2', name: 'small-commits', body: 'Commit in small steps with clear messages.', updated_at: ts },
      ];
    }
    for (const t of this.tasks.values()) if (t.status === 'ongoing') this.streams.set(t.id, { gen: new FakeStream(t.id, 'developer', this.now), feed: [], terminal: '', bytes: 0 });
    // Pre-fill some output so the panel is not empty on first open.
    for (const id of this.streams.keys()) for (let i = 0; i < 8; i++) this.pushOutput(id, false);
    if (opts.streamMs) this.timer = setInterval(() => this.tick(), opts.streamMs);
  }

  /** Stops the streaming timer. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Makes the next call of `method` fail with `message`. */
  failNext(method: keyof Api, message: string): void {
    this.failures.set(method, message);
  }

  /** Emits one batch of output for every running task (what the timer does). */
  tick(n = 3): void {
    for (const id of this.streams.keys()) this.pushOutput(id, true, n);
  }

  invoke<K extends keyof Api>(method: K, ...args: Parameters<Api[K]>): Promise<Awaited<ReturnType<Api[K]>>> {
    this.calls.push({ method, args });
    const fail = this.failures.get(method);
    if (fail !== undefined) {
      this.failures.delete(method);
      return Promise.reject(fail);
    }
    const h = this.handlers[method] as unknown as (...a: unknown[]) => unknown;
    try {
      const out = h(...args);
      return Promise.resolve(out === undefined ? undefined : structuredClone(out)) as Promise<Awaited<ReturnType<Api[K]>>>;
    } catch (e) {
      return Promise.reject(e instanceof Error ? e.message : String(e));
    }
  }

  listen<T = unknown>(event: string, handler: (payload: T) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const h = handler as (p: unknown) => void;
    set.add(h);
    return () => set.delete(h);
  }

  listenerCount(event: string): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  emit(event: string, payload?: unknown): void {
    for (const h of [...(this.listeners.get(event) ?? [])]) h(payload);
  }

  private stamp(): string {
    return this.now().toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  private pushOutput(id: string, emit: boolean, n = 3): void {
    const s = this.streams.get(id);
    if (!s) return;
    const batch = s.gen.next(n);
    s.feed.push(...batch.feed);
    if (s.feed.length > FEED_KEEP) s.feed.splice(0, s.feed.length - FEED_KEEP);
    s.terminal += batch.terminal;
    s.bytes += batch.terminal.length;
    if (s.terminal.length > TERMINAL_KEEP) s.terminal = s.terminal.slice(-TERMINAL_KEEP);
    if (emit) this.emit(`task:output:${id}`, batch);
  }

  private get(id: string): TaskDetail {
    const t = this.tasks.get(id);
    if (!t) throw new Error(notFound('task', id));
    return t;
  }

  private view(t: TaskDetail): TaskView {
    const { command: _c, command_text: _ct, attachments: _a, usage_by_role: _ur, tools: _t, answers: _an, reports: _r, injections: _i, events: _e, log: _l, usage: _u, ...v } = t;
    return v;
  }

  private change(t: TaskDetail, status?: TaskDetail['status'], event?: TypedEvent): TaskView {
    if (status && status !== t.status) {
      t.events.push({ at: this.stamp(), kind: 'status_changed', data: { from: t.status, to: status } });
      t.status = status;
    }
    if (event) t.events.push({ at: this.stamp(), ...event });
    t.updated_at = this.stamp();
    this.emit('tasks:changed');
    return this.view(t);
  }

  /** The current text of a command template, as a task copies it ("" for none). */
  private commandText(id: string): string {
    if (!id) return '';
    const c = this.commands.find((x) => x.id === id);
    if (!c) throw new Error(notFound('command', id));
    return c.body;
  }

  private attachment(taskId: string, name: string, dataBase64: string): TaskDetail['attachments'][number] {
    const pad = dataBase64.endsWith('==') ? 2 : dataBase64.endsWith('=') ? 1 : 0;
    const size = Math.floor((dataBase64.length * 3) / 4) - pad;
    return { name, size, added_at: this.stamp(), path: `/home/dev/.local/share/boof-runner/attachments/${taskId}/${name}` };
  }

  private notOngoing(t: TaskDetail, what: string): void {
    if (t.status === 'ongoing') throw new Error(`This task is ongoing: stop it before you ${what}.`);
  }

  status(): RunnerStatus {
    const running = [...this.tasks.values()]
      .filter((t) => t.status === 'ongoing')
      .map((t) => ({
        task_id: t.id,
        title: t.title,
        role: 'developer' as const,
        round: 1,
        iteration: 1,
        iterations: t.runs,
        started_at: t.started_at ?? t.updated_at,
        step_started_at: t.updated_at,
        tool: 'claude-code',
        model: 'sonnet',
        usage: { tokens_in: 48_200 + (this.streams.get(t.id)?.feed.length ?? 0) * 150, tokens_out: 6_100, cache_read: 0, cache_write: 0, cost_usd: 0.42 },
        resources: { processes: 3, rss_bytes: 180 << 20, cpu_seconds: 12 },
      }));
    const paused = [...this.pausedTools].map(([tool, until]) => ({ tool, until, text: `${tool} paused until ${until.slice(11, 16)} (usage limit)` }));
    return { enabled: this.enabled, lock_held: true, running, ...(paused.length ? { paused } : {}) };
  }

  private validateInput(prompt: string, runs: number, priority: number): void {
    if (!prompt.trim()) throw new Error('Prompt is empty.');
    if (!Number.isInteger(runs) || runs < 0 || runs > 100) throw new Error('Runs must be between 1 and 100.');
    if (!Number.isInteger(priority)) throw new Error('priority must be a whole number');
  }

  private handlers: Handlers = {
    'TaskService.List': (f) => {
      const q = (f.search ?? '').trim().toLowerCase();
      return [...this.tasks.values()]
        .filter((t) => (f.status ? t.status === f.status : t.status !== 'archived'))
        .filter((t) => !f.label || t.labels.includes(f.label))
        .filter((t) => !q || [t.title, t.prompt, t.id, ...t.labels].some((s) => s.toLowerCase().includes(q)))
        .map((t) => this.view(t));
    },
    'TaskService.Create': (input) => {
      this.validateInput(input.prompt, input.runs, input.priority);
      if (input.base && !['main', 'develop', 'release/1.0'].includes(input.base) && !/^[0-9a-f]{7,40}$/.test(input.base)) {
        throw new Error(unknownBaseMessage(input.base, '/home/dev/project'));
      }
      const ts = this.stamp();
      const id = `t${this.now().getTime().toString(36)}${(this.counter++).toString(36).padStart(2, '0')}`;
      const positions = [...this.tasks.values()].filter((t) => t.status === 'pending').map((t) => t.position);
      const text = this.commandText(input.command ?? '');
      const files = input.attachments ?? [];
      files.forEach((f, i) => {
        if (!f.name.trim()) throw new Error('Attachment name is empty.');
        if (files.findIndex((g) => g.name === f.name) !== i) throw new Error(`Attachment name "${f.name}" is given twice.`);
      });
      const t = blankDetail({ id, prompt: input.prompt, created_at: ts });
      Object.assign(t, { title: input.title.trim(), priority: input.priority, base: input.base, labels: input.labels, runs: input.runs || 1, position: Math.max(-1, ...positions) + 1 });
      Object.assign(t, { command: input.command ?? '', command_text: text, repo: this.settings.working_directory });
      if (input.not_before) t.not_before = new Date(input.not_before).toISOString().replace(/\.\d{3}Z$/, 'Z');
      t.attachments = files.map((f) => this.attachment(id, f.name, f.data_base64));
      this.tasks.set(id, t);
      this.emit('tasks:changed');
      return this.view(t);
    },
    'TaskService.Get': (id) => this.get(id),
    'TaskService.Update': (id, u) => {
      const t = this.get(id);
      this.validateInput(u.prompt, u.runs, u.priority);
      if (t.status !== 'draft' && t.status !== 'pending') throw new Error(`Cannot edit task ${id}: it is ${t.status} (allowed: draft, pending)`);
      // Another template is copied now; the same name keeps the task's copy.
      const text = u.command === t.command ? t.command_text : this.commandText(u.command);
      Object.assign(t, { ...u, title: u.title.trim(), command_text: text });
      return this.change(t, undefined, { kind: 'edited', data: {} });
    },
    'TaskService.SetPriority': (id, p) => {
      if (!Number.isInteger(p)) throw new Error('priority must be a whole number');
      const t = this.get(id);
      t.priority = p;
      return this.change(t);
    },
    'TaskService.SetSkip': (id, skip) => {
      const t = this.get(id);
      if (t.status !== 'pending' && t.status !== 'draft') throw new Error(`only pending or draft tasks can be skipped (task is ${t.status})`);
      t.skip = skip;
      return this.change(t);
    },
    'TaskService.Reorder': (ids) => {
      for (const id of ids) if (this.get(id).status !== 'pending') throw new Error(statusMessage('reorder', this.get(id).status, ['pending']));
      ids.forEach((id, i) => (this.get(id).position = i));
      this.emit('tasks:changed');
    },
    'TaskService.Retry': (id) => {
      const t = this.get(id);
      if (t.status !== 'failed' && t.status !== 'stopped') throw new Error(statusMessage('retry', t.status, ['failed', 'stopped']));
      delete t.error;
      return this.change(t, 'pending');
    },
    'TaskService.RetryFrom': (id, from) => {
      const t = this.get(id);
      if (t.status !== 'failed' && t.status !== 'stopped') throw new Error(statusMessage('retry', t.status, ['failed', 'stopped']));
      if (from !== 'planner' && from !== 'developer') throw new Error(`Invalid input: a retry starts at the planner or the developer, not "${from}".`);
      delete t.error;
      return this.change(t, 'pending');
    },
    'TaskService.Archive': (id) => {
      const t = this.get(id);
      this.notOngoing(t, 'archive it');
      (t as TaskDetail & { prev?: string }).prev = t.status;
      return this.change(t, 'archived');
    },
    'TaskService.Unarchive': (id) => {
      const t = this.get(id) as TaskDetail & { prev?: TaskDetail['status'] };
      if (t.status !== 'archived') throw new Error(statusMessage('unarchive', t.status, ['archived']));
      return this.change(t, t.prev ?? 'done');
    },
    'TaskService.Delete': (id) => {
      this.notOngoing(this.get(id), 'delete it');
      this.tasks.delete(id);
      this.emit('tasks:changed');
    },
    'TaskService.Export': (id) => {
      const t = this.get(id);
      return `---\nid: ${t.id}\ntitle: ${t.title}\nstatus: ${t.status}\npriority: ${t.priority}\nlabels: [${t.labels.join(', ')}]\n---\n\n## Prompt\n\n${t.prompt}\n`;
    },
    'TaskService.Import': (md, again) => {
      const m = /## Prompt\s*\n([\s\S]*)$/.exec(md);
      if (!md.startsWith('---')) throw new Error('Invalid task markdown: line 1: the file must start with a --- frontmatter line.');
      if (!m || !m[1].trim()) throw new Error('Invalid task markdown: no ## Prompt section');
      const title = /^title:\s*(.*)$/m.exec(md)?.[1] ?? '';
      const origin = (/^origin_?[iI]d:\s*"?([^"\n]*)"?$/m.exec(md) ?? /^id:\s*"?([^"\n]*)"?$/m.exec(md))?.[1] ?? '';
      const before = origin ? this.origins.get(origin) : undefined;
      if (before && !again) throw new Error(duplicateMessage(origin, before));
      const notes = [...md.matchAll(/^([a-zA-Z_]+):/gm)].map((x) => x[1]).filter((k) => !KNOWN_KEYS.has(k)).map((k) => `unknown key "${k}" kept`);
      const created = this.handlers['TaskService.Create']({ title, prompt: m[1].trim(), priority: 0, base: '', labels: [], runs: 1 });
      // As Go's import: a new task that keeps the exported status (an ongoing one comes in stopped).
      const status = /^status:\s*(\w+)$/m.exec(md)?.[1] as TaskDetail['status'] | undefined;
      if (status === 'ongoing') {
        this.get(created.id).status = 'stopped';
        notes.push('status ongoing imported as stopped (the run it was in is gone)');
      } else if (status && status !== 'pending') this.get(created.id).status = status;
      if (origin) this.origins.set(origin, before ?? created.id);
      return { task: this.view(this.get(created.id)), notes };
    },
    'TaskService.Answer': (id, answer) => {
      const t = this.get(id);
      if (!answer.trim()) throw new Error('The answer is empty.');
      if (t.status !== 'actions') throw new Error(statusMessage('answer', t.status, ['actions']));
      t.answers += (t.answers ? '\n\n' : '') + answer.trim();
      delete t.questions;
      return this.change(t, 'pending', { kind: 'answered', data: { bytes: answer.trim().length } });
    },
    'TaskService.Branches': () => ['main', 'develop', 'release/1.0'],
    'TaskService.AddAttachment': (id, f) => {
      const t = this.get(id);
      if (!f.name.trim()) throw new Error('attachment name is empty');
      t.attachments = t.attachments.filter((a) => a.name !== f.name);
      t.attachments.push(this.attachment(id, f.name, f.data_base64));
      this.change(t);
      return t.attachments;
    },
    'TaskService.RemoveAttachment': (id, name) => {
      const t = this.get(id);
      t.attachments = t.attachments.filter((a) => a.name !== name);
      this.change(t);
      return t.attachments;
    },

    'RunService.Status': () => this.status(),
    'RunService.SetEnabled': (on) => {
      this.enabled = on;
      const s = this.status();
      this.emit('runner:status', s);
      return s;
    },
    'RunService.ResumeTool': (tool) => {
      if (!this.pausedTools.delete(tool)) throw new Error(`The tool ${tool} is not paused.`);
      const s = this.status();
      this.emit('runner:status', s);
      return s;
    },
    'RunService.Stop': (id) => {
      const t = this.get(id);
      if (t.status !== 'ongoing') throw new Error(statusMessage('stop', t.status, ['ongoing']));
      this.streams.delete(id);
      t.error = 'stopped by the user; work kept in the worktree';
      t.finished_at = this.stamp();
      this.change(t, 'stopped');
      this.emit('runner:status', this.status());
    },
    'RunService.Inject': (id, text) => {
      const t = this.get(id);
      if (!text.trim()) throw new Error('The prompt is empty.');
      const injectable: TaskDetail['status'][] = ['ongoing', 'pending', 'actions'];
      if (!injectable.includes(t.status)) throw new Error(statusMessage('inject into', t.status, injectable));
      const inj = { id: `inj${this.counter++}`, text: text.trim(), delivery: this.injectDelivery, applied: this.injectDelivery === 'live', created_at: this.stamp() };
      t.injections.push(inj);
      return { injection_id: inj.id, delivery: inj.delivery };
    },
    'RunService.Output': (id): OutputSnapshot => {
      const s = this.streams.get(id);
      if (!s) return { task_id: id, feed: [], terminal: '', transcript_bytes: 0 };
      return { task_id: id, feed: s.feed, terminal: s.terminal, transcript_bytes: s.bytes };
    },
    'RunService.Transcript': (id, offset, limit) => {
      const s = this.streams.get(id);
      const all = s?.terminal ?? '';
      return { data: all.slice(offset, offset + limit), offset, total: all.length };
    },

    'CommandService.List': () => [...this.commands].sort((a, b) => a.name.localeCompare(b.name)),
    'CommandService.Save': (c) => {
      const name = c.name.trim();
      if (!name) throw new Error('The command needs a name.');
      if (!c.body.trim()) throw new Error('The command text is empty.');
      if (this.commands.some((x) => x.name === name && x.id !== c.id)) throw new Error(`A command named "${name}" already exists.`);
      if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) throw new Error(`Command name "${name}" must be 1-64 letters, digits, '-', '_' or '.'.`);
      const cmd: Command = { id: c.id || `cmd${this.counter++}`, name: c.name.trim(), body: c.body, updated_at: this.stamp() };
      this.commands = [...this.commands.filter((x) => x.id !== cmd.id), cmd];
      this.emit('commands:changed');
      return cmd;
    },
    'CommandService.Delete': (id) => {
      this.commands = this.commands.filter((x) => x.id !== id);
      this.emit('commands:changed');
    },

    'SettingsService.Get': () => ({ saved: true, errors: [], settings: this.settings }),
    'SettingsService.Save': (s) => {
      const errors = validateSettings(s, Object.keys(MODELS));
      if (errors.length) return { saved: false, errors, settings: this.settings };
      this.settings = structuredClone(s);
      this.enabled = s.runner_enabled;
      this.emit('settings:changed');
      return { saved: true, errors: [], settings: this.settings };
    },
    'SettingsService.PickDirectory': () => '/home/dev/other-project',
    'SettingsService.Tools': () => this.health(false).map((h) => h.tool),
    'SettingsService.ToolHealth': () => this.health(false),
    'SettingsService.TestTool': (tool) => {
      const h = this.health(true).find((x) => x.tool === tool);
      if (!h) throw new Error(`Unknown tool ${tool}.`);
      return h;
    },
    'SettingsService.Models': (tool) => {
      const m = MODELS[tool];
      if (!m) throw new Error(`Unknown tool ${tool}.`);
      return m;
    },
    'SettingsService.Usage': (r) => {
      const day = (s: string) => (/^\d{4}-\d{2}-\d{2}$/.test(s) ? Date.parse(`${s}T00:00:00Z`) : NaN);
      const from = day(r.from);
      const to = day(r.to);
      if (Number.isNaN(from) || Number.isNaN(to) || to < from) throw new Error('The usage range needs two dates, from before to (YYYY-MM-DD).');
      if (to - from > 366 * 86_400_000) throw new Error('The usage range is limited to one year.');
      return usageFor(r, [...this.tasks.keys()]);
    },
    'SettingsService.Budget': () => budgetReport(this.settings, [...this.tasks.values()], this.now()),
    'SettingsService.RetryBudgetStopped': () => {
      const rep = budgetReport(this.settings, [...this.tasks.values()], this.now());
      const retried = rep.stopped.filter((x) => !x.held_by);
      for (const x of retried) {
        const t = this.get(x.id);
        delete t.error;
        this.change(t, 'pending');
      }
      return { retried, held: rep.stopped.filter((x) => x.held_by) };
    },

    'DiagService.ReportError': (e) => {
      this.frontendErrors.push(e);
      console.error(`front end error: ${e.message}`);
    },
    'DiagService.Snapshot': () => undefined,

    'NavService.Ready': () => {
      const p = this.pendingNav;
      this.pendingNav = [];
      return p;
    },
    'NavService.Shown': (seq, view) => {
      this.shownNav.push({ seq, view });
    },

    ...reviewHandlers(this),
    ...queueHandlers(this),
    ...scheduleHandlers({ tasks: this.tasks, now: () => this.now(), workDir: () => this.settings.working_directory, createTask: (i) => this.handlers['TaskService.Create'](i) }),
    'ReviewService.Summary': (id) => fakeDiff(this.diffKey(id)),
    'ReviewService.FilePatch': (id, path, force) => fakePatch(this.diffKey(id), path, force),
    'ReviewService.FilePatchWith': (id, path, o) => fakePatch(o.leftovers ? `${this.diffKey(id)}-leftovers` : this.diffKey(id), path, o.force),
    'ReviewService.LeftoversSummary': (id) => ({ ...fakeDiff(`${this.diffKey(id)}-leftovers`), task_id: id }),
    'ReviewService.LeftoversFilePatch': (id, path, force) => fakePatch(`${this.diffKey(id)}-leftovers`, path, force),
    'ReviewService.Commits': (id, leftovers) => {
      this.diffKey(id);
      const at = this.stamp();
      return leftovers
        ? [{ sha: 'c0ffee1', subject: 'boof-runner: leftovers of ' + id, author: 'Boof Runner', date: at }]
        : [
            { sha: '9b8e771', subject: 'Rename the module path in every package', author: 'developer agent', date: at },
            { sha: '5d1c2a0', subject: 'Add a test for the path rewrite', author: 'developer agent', date: at },
          ];
    },
  };

  private diffKey(id: string): string {
    const t = this.get(id);
    if (!t.branch) throw new Error(`task ${id} has no branch yet`);
    return t.labels.includes('big-diff') ? `${id}-big` : id;
  }

  private health(tested: boolean): ToolHealth[] {
    const ts = this.stamp();
    return [
      { tool: 'claude-code', installed: true, version: '2.1.3', authenticated: true, checked_at: ts },
      { tool: 'codex', installed: true, version: '0.61.0', authenticated: tested, checked_at: ts, ...(tested ? {} : { error: 'not checked yet: press Test' }) },
      { tool: 'mock', installed: true, version: 'built-in', authenticated: true, checked_at: ts },
    ];
  }
}

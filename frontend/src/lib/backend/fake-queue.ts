// Fake MergeQueueService and VerifyService (issue 19) for tests and the browser build.
// Entries stay where the user puts them until a test lands or parks one
// (landFake, parkFake): the fake has no runner.
import type { TaskDetail } from './types';
import type { QueueAddInput, QueueItem, RepoVerify } from './queue-api';
import { ACTIVE_QUEUE_STATES, EVENT_NAMES, type QueueState as EntryState } from './types';
import { notFound } from './fake-errors';

/** What the fake queue needs from FakeBackend. */
export interface QueueHost {
  readonly tasks: Map<string, TaskDetail>;
  emit(event: string, payload?: unknown): void;
}

interface QueueState {
  entries: QueueItem[];
  verify: Map<string, string>;
  counter: number;
}

const states = new WeakMap<QueueHost, QueueState>();

function state(host: QueueHost): QueueState {
  let s = states.get(host);
  if (!s) {
    s = { entries: [], verify: new Map(), counter: 0 };
    states.set(host, s);
  }
  return s;
}

const active = (e: QueueItem) => (ACTIVE_QUEUE_STATES as readonly EntryState[]).includes(e.state);

function find(host: QueueHost, taskId: string): QueueItem {
  const e = state(host).entries.find((x) => x.task_id === taskId && active(x));
  if (!e) throw new Error(`Merge queue entry of task ${JSON.stringify(taskId)} does not exist.`);
  return e;
}

function changed(host: QueueHost): void {
  host.emit(EVENT_NAMES.queueChanged);
  host.emit('tasks:changed');
}

/** The fake repository's suggestion: a Go module. */
function view(s: QueueState, path: string): RepoVerify {
  const command = s.verify.get(path) ?? '';
  return { path, command, exists: true, suggestions: command ? [] : [{ command: 'go test ./...', because: 'go.mod' }] };
}

/** Lands an entry as the runner would (for tests and the demo). */
export function landFake(host: QueueHost, taskId: string): void {
  const e = find(host, taskId);
  Object.assign(e, { state: 'landed', reason: '', verified: true, landed: 'c0ffee0' + e.id, updated_at: new Date().toISOString() });
  const t = host.tasks.get(taskId);
  if (t) t.status = 'accepted';
  changed(host);
}

/** Parks an entry with a reason, as a red verify or a conflict would. */
export function parkFake(host: QueueHost, taskId: string, reason: string, output = '', files: string[] = []): void {
  const e = find(host, taskId);
  Object.assign(e, { state: 'blocked', reason, output, files, updated_at: new Date().toISOString() });
  changed(host);
}

export function queueHandlers(host: QueueHost) {
  const s = state(host);
  const list = (history: boolean) => {
    const act = s.entries.filter(active);
    return history ? [...act, ...s.entries.filter((e) => !active(e)).reverse()] : act;
  };
  return {
    'MergeQueueService.List': (history: boolean): QueueItem[] => structuredClone(list(history)),
    'MergeQueueService.Add': (taskId: string, input: QueueAddInput): QueueItem => {
      // In Go's order: the strategy, the task, then the store's checks (status, already queued).
      const strategy = input.strategy || 'merge';
      if (!['merge', 'squash', 'rebase'].includes(strategy)) throw new Error(`Bad accept strategy: ${JSON.stringify(strategy)} (want merge, squash or rebase).`);
      const t = host.tasks.get(taskId);
      if (!t) throw new Error(notFound('task', taskId));
      if (t.status !== 'done') throw new Error(`This task is ${t.status}: only done tasks allow that.`);
      const cur = s.entries.find((x) => x.task_id === taskId && active(x));
      if (cur) throw new Error(`Task ${taskId} is already in the merge queue of ${cur.target} (${cur.state}).`);
      s.counter++;
      const e: QueueItem = {
        id: s.counter,
        task_id: taskId,
        title: t.title || t.prompt.split('\n')[0],
        repo: t.repo || '/home/me/project',
        target: input.target || t.base || 'main',
        strategy,
        state: 'queued',
        reason: '',
        files: [],
        output: '',
        landed: '',
        verified: false,
        attempts: 0,
        updated_at: new Date().toISOString(),
      };
      s.entries.push(e);
      changed(host);
      return structuredClone(e);
    },
    'MergeQueueService.Remove': (taskId: string): boolean => {
      const e = find(host, taskId);
      if (e.state === 'landing') return false;
      s.entries.splice(s.entries.indexOf(e), 1);
      changed(host);
      return true;
    },
    'MergeQueueService.Move': (taskId: string, to: number): QueueItem[] => {
      const e = find(host, taskId);
      const act = s.entries.filter(active).filter((x) => x !== e);
      const at = Math.min(Math.max(to, 0), act.length);
      act.splice(at, 0, e);
      s.entries = [...act, ...s.entries.filter((x) => !active(x))];
      changed(host);
      return structuredClone(list(false));
    },
    'MergeQueueService.SendBack': (taskId: string): QueueItem => {
      const e = find(host, taskId);
      if (e.state !== 'blocked') throw new Error(`Merge queue entry is not blocked (it is ${e.state}).`);
      e.state = 'returned';
      const t = host.tasks.get(taskId);
      if (t) t.status = 'pending';
      changed(host);
      return structuredClone(e);
    },
    'MergeQueueService.Count': (): number => s.entries.filter(active).length,
    'VerifyService.Get': (repo: string): RepoVerify => {
      if (!repo) throw new Error('Choose a repository folder first');
      return view(s, repo);
    },
    'VerifyService.Set': (repo: string, command: string): RepoVerify => {
      if (!repo) throw new Error('Choose a repository folder first');
      const cmd = command.trim();
      if (!cmd) throw new Error('Verify command is empty.');
      if (cmd.length > 4096) throw new Error('Verify command is longer than 4096 bytes.');
      if (cmd.includes('\n')) throw new Error('Verify command contains the control character U+000A; it must be one line of plain text.');
      s.verify.set(repo, cmd);
      host.emit('settings:changed');
      return view(s, repo);
    },
    'VerifyService.Unset': (repo: string): RepoVerify => {
      if (!s.verify.delete(repo)) throw new Error(`Verify command of repository ${JSON.stringify(repo)} does not exist.`);
      host.emit('settings:changed');
      return view(s, repo);
    },
    'VerifyService.Repos': (): RepoVerify[] => {
      const paths = new Set<string>(['/home/me/project', ...s.verify.keys()]);
      return [...paths].map((p) => view(s, p));
    },
  };
}

import type { Status } from './types';

// The messages of backend/usererr, word for word, for the fake backend:
// a screen tested against the fake shows what the Go side would say.

/** The legal status changes (backend/task/status.go). */
const TRANSITIONS: Record<Status, Status[]> = {
  draft: ['pending', 'archived'],
  pending: ['ongoing', 'draft'],
  ongoing: ['actions', 'done', 'failed', 'stopped', 'pending'],
  actions: ['pending'],
  done: ['archived', 'accepted', 'rejected', 'pending'],
  failed: ['pending', 'archived'],
  stopped: ['pending', 'archived'],
  accepted: ['done', 'archived'],
  rejected: ['pending', 'archived'],
  archived: ['draft', 'done', 'failed', 'stopped', 'accepted', 'rejected'],
};

export function canTransition(from: Status, to: Status): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Finished running (task.Status.Terminal). */
export function terminal(s: Status): boolean {
  return ['done', 'failed', 'stopped', 'accepted', 'rejected'].includes(s);
}

/** A store.NotFoundError: `Task "x" does not exist.` */
export function notFound(what: 'task' | 'command' | 'attachment' | 'schedule', id: string): string {
  return `${what.charAt(0).toUpperCase()}${what.slice(1)} ${JSON.stringify(id)} does not exist.`;
}

/** A store.DuplicateOriginError: the same task file imported twice. */
export function duplicateMessage(origin: string, taskId: string): string {
  return `Task ${JSON.stringify(origin)} was already imported (as ${taskId}); nothing changed: import it again (--again) to make a second copy.`;
}

/** A task.TransitionError. */
export function transitionMessage(from: Status, to: Status): string {
  if (from === to && from === 'failed') return 'This task has already failed.';
  if (from === to) return `This task is already ${adjective(from)}.`;
  const verb = STOP_BEFORE_BECOMING[to];
  if (verb && from === 'ongoing') return `This task is ongoing: stop it before you ${verb}.`;
  return `${thisTask(from)} and cannot become ${adjective(to)}.`;
}

/** A store.StatusError: `op` refused in `status`, which allows only `allowed`. */
export function statusMessage(op: string, status: Status, allowed: Status[]): string {
  const verb = STOP_BEFORE[op];
  if (verb && status === 'ongoing' && !allowed.includes('ongoing')) return `This task is ongoing: stop it before you ${verb}.`;
  if (op === 'answer') return `${thisTask(status)} and has no questions to answer.`;
  const names = list(allowed.map((s) => (s === 'actions' ? 'waiting' : s)));
  const can = CAN_BE[op];
  return can ? `${thisTask(status)}: only ${names} tasks can ${can}.` : `${thisTask(status)}: only ${names} tasks allow that.`;
}

const STOP_BEFORE: Record<string, string> = {
  edit: 'edit it', delete: 'delete it', retry: 'retry it', 'attach to': 'attach files to it', reorder: 'reorder it',
};

const STOP_BEFORE_BECOMING: Partial<Record<Status, string>> = {
  archived: 'archive it', accepted: 'accept it', rejected: 'reject it', draft: 'make it a draft',
};

const CAN_BE: Record<string, string> = {
  edit: 'be edited', delete: 'be deleted', retry: 'be retried', unarchive: 'be unarchived', stop: 'be stopped',
  'inject into': 'take injected prompts', 'attach to': 'take attachments', reorder: 'be reordered', 'ask questions on': 'get questions',
};

function thisTask(s: Status): string {
  if (s === 'failed') return 'This task has failed';
  if (s === 'stopped' || s === 'accepted' || s === 'rejected') return `This task was ${s}`;
  return `This task is ${adjective(s)}`;
}

function adjective(s: Status): string {
  if (s === 'draft') return 'a draft';
  if (s === 'actions') return 'waiting for your answers';
  return s;
}

function list(items: string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** Quotes up to five file names and says how many more (usererr's files). */
export function fileList(names: string[]): string {
  const q = names.slice(0, 5).map((n) => JSON.stringify(n));
  if (names.length > 5) q.push(`${names.length - 5} more`);
  if (!q.length) return 'some files';
  return q.length < 2 ? q[0] : `${q.slice(0, -1).join(', ')} and ${q[q.length - 1]}`;
}

/** The review errors: conflict, dirty checkout, target moved. */
export function conflictMessage(files: string[]): string {
  return `Nothing changed: the accept would conflict in ${fileList(files)}; re-queue the task to merge the target into its branch, or resolve it by hand.`;
}

export function dirtyMessage(dir: string, files: string[]): string {
  return `Nothing changed: the target checkout ${dir} has uncommitted changes in ${fileList(files)}; commit or stash them first.`;
}

export function movedMessage(branch: string, expected: string, actual: string): string {
  return `Nothing changed: branch ${branch} moved meanwhile (expected ${expected.slice(0, 12) || 'nothing'}, now ${actual.slice(0, 12) || 'nothing'}); try again.`;
}

/** A worktree.UnknownBaseError. */
export function unknownBaseMessage(base: string, dir: string): string {
  return `The base ref ${JSON.stringify(base)} is not a branch or commit in ${dir}.`;
}

// Fake ReviewService accept and decision methods (issue 9) for tests and the browser build.
// Branches of the fake repository:
//   main         checked out in /home/me/project, clean (the default target)
//   release/1.4  checked out nowhere; merging any task into it conflicts
//   wip          checked out in /home/me/project-wip with uncommitted changes
import type { TaskDetail, TypedEvent } from './types';
import type { AcceptInput, AcceptPlan, AcceptRecord, ChangeRequest, QueuedFix, TaskBranch } from './review-api';
import { canTransition, conflictMessage, dirtyMessage, movedMessage, notFound, terminal, transitionMessage } from './fake-errors';

/** What the fake review needs from FakeBackend. */
export interface ReviewHost {
  readonly tasks: Map<string, TaskDetail>;
  emit(event: string, payload?: unknown): void;
}

interface Branch {
  sha: string;
  checkout?: string;
  dirty?: string[];
  conflicts?: string[];
}

interface RepoState {
  branches: Map<string, Branch>;
  accepts: Map<string, AcceptRecord>;
  counter: number;
}

const BASE_SHA = '3f2a9c1d0e5b7a8c9d0e1f2a3b4c5d6e7f8a9b0c';
const states = new WeakMap<ReviewHost, RepoState>();

function state(host: ReviewHost): RepoState {
  let s = states.get(host);
  if (!s) {
    s = {
      branches: new Map<string, Branch>([
        ['main', { sha: BASE_SHA, checkout: '/home/me/project' }],
        ['release/1.4', { sha: 'a71c0de4b2f9e8d7c6b5a4938271605f4e3d2c1b', conflicts: ['go.mod', 'internal/config/config.go'] }],
        ['wip', { sha: '5e4d3c2b1a0f9e8d7c6b5a49382716f5e4d3c2b1', checkout: '/home/me/project-wip', dirty: ['README.md', 'cmd/boof/main.go'] }],
      ]),
      accepts: new Map(),
      counter: 0,
    };
    states.set(host, s);
  }
  return s;
}

/** Moves a fake branch as if someone committed on it (for tests of "target moved"). */
export function moveFakeBranch(host: ReviewHost, branch: string): string {
  const s = state(host);
  const b = s.branches.get(branch);
  if (!b) throw new Error(`no fake branch ${branch}`);
  b.sha = sha(s, 'moved');
  return b.sha;
}

function sha(s: RepoState, salt: string): string {
  s.counter++;
  let h = 0x811c9dc5;
  for (const c of `${salt}:${s.counter}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return (h.toString(16).padStart(8, '0') + 'c0ffee00d15ea5e0b0f4d3adb33f000000000000').slice(0, 40);
}

function task(host: ReviewHost, id: string): TaskDetail {
  const t = host.tasks.get(id);
  if (!t) throw new Error(notFound('task', id));
  return t;
}

function setStatus(host: ReviewHost, t: TaskDetail, status: TaskDetail['status'], event: TypedEvent): void {
  const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  t.events.push({ at, kind: 'status_changed', data: { from: t.status, to: status, reason: event.kind } }, { at, ...event });
  t.status = status;
  t.updated_at = at;
  host.emit('tasks:changed');
}

/** Refuses what the Go side refuses (task.CheckTransition), in its words. */
function mustBecome(t: TaskDetail, to: TaskDetail['status']): void {
  if (!canTransition(t.status, to)) throw new Error(transitionMessage(t.status, to));
}

function plan(host: ReviewHost, id: string, input: AcceptInput): AcceptPlan {
  const t = task(host, id);
  mustBecome(t, 'accepted');
  if (!t.branch) throw new Error('task branch does not exist');
  if (!['merge', 'squash', 'rebase'].includes(input.strategy)) throw new Error(`bad accept strategy: '${input.strategy}'`);
  if (input.only?.length && (input.strategy !== 'squash' || input.include_leftovers))
    throw new Error('Nothing changed: a hunk-level accept is one squash commit; choose squash, leave out the leftovers, or accept the whole branch.');
  const name = input.target.trim() || t.base || 'main';
  if (!/^[\w./-]+$/.test(name) || name.includes('..')) throw new Error(`bad branch name: '${name}'`);
  if (name === t.branch) throw new Error(`refs/heads/${name}: target is a task branch`);
  const b = state(host).branches.get(name);
  if (!b) throw new Error(`target branch does not exist: ${name}`);
  const taskHead = `9b8e771${id.replace(/\W/g, '').padEnd(33, '0')}`.slice(0, 40);
  const leftovers = input.include_leftovers ? `c0ffee1${id.replace(/\W/g, '').padEnd(33, '0')}`.slice(0, 40) : undefined;
  const commits = [`5d1c2a0${'0'.repeat(33)}`, taskHead, ...(leftovers ? [leftovers] : [])];
  return {
    strategy: input.strategy,
    target_ref: `refs/heads/${name}`,
    target_sha: b.sha,
    task_ref: `refs/heads/${t.branch}`,
    task_head: taskHead,
    ...(leftovers ? { leftovers } : {}),
    head: leftovers ?? taskHead,
    commits,
    ...(b.conflicts ? {} : { tree: 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391' }),
    fast_forward: b.sha === BASE_SHA,
    ...(b.checkout ? { checkout: b.checkout } : {}),
    ...(b.dirty ? { dirty: [...b.dirty] } : {}),
    ...(b.conflicts ? { conflicts: [...b.conflicts] } : {}),
  };
}

function accept(host: ReviewHost, id: string, input: AcceptInput): AcceptRecord {
  const p = plan(host, id, input);
  const name = p.target_ref.slice('refs/heads/'.length);
  if (input.expect_target && input.expect_target !== p.target_sha) {
    throw new Error(movedMessage(name, input.expect_target, p.target_sha));
  }
  if (p.conflicts?.length) throw new Error(conflictMessage(p.conflicts));
  if (p.dirty?.length) throw new Error(dirtyMessage(p.checkout ?? '', p.dirty));
  const s = state(host);
  const b = s.branches.get(name)!;
  const rec: AcceptRecord = {
    strategy: p.strategy,
    target: name,
    old_sha: b.sha,
    new_sha: p.strategy === 'rebase' && p.fast_forward ? p.head : sha(s, `${id}:${p.strategy}`),
    task_head: p.task_head,
    ...(p.leftovers ? { leftovers: p.leftovers } : {}),
    ...(b.checkout ? { checkout: b.checkout } : {}),
    at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    ...(input.only?.length ? { only: input.only.map((o) => ({ file: o.file, ...(o.hunks?.length ? { hunks: o.hunks } : {}) })) } : {}),
  };
  b.sha = rec.new_sha;
  s.accepts.set(id, rec);
  setStatus(host, task(host, id), 'accepted', { kind: 'accepted', data: rec });
  return rec;
}

function undo(host: ReviewHost, id: string): void {
  const t = task(host, id);
  const s = state(host);
  const rec = s.accepts.get(id);
  if (t.status !== 'accepted' || !rec) throw new Error(`task ${id} has no accept to undo`);
  const b = s.branches.get(rec.target)!;
  if (b.sha !== rec.new_sha) throw new Error(movedMessage(rec.target, rec.new_sha, b.sha));
  if (b.dirty?.length) throw new Error(dirtyMessage(b.checkout ?? '', b.dirty));
  b.sha = rec.old_sha;
  s.accepts.delete(id);
  setStatus(host, t, 'done', { kind: 'accept_undone', data: rec });
}

const fixRuns = new WeakMap<object, number>();

function requestChanges(host: ReviewHost, id: string, c: ChangeRequest): QueuedFix {
  const t = task(host, id);
  if (!terminal(t.status)) throw new Error(transitionMessage(t.status, 'pending')); // no finished work to review
  mustBecome(t, 'pending');
  const general = (c.general ?? '').trim();
  (c.comments ?? []).forEach((cm, i) => {
    if (!cm.text?.trim()) throw new Error(`bad request for changes: comment ${i + 1} is empty`);
    if (!cm.file && (cm.line || cm.hunk)) throw new Error(`bad request for changes: comment ${i + 1} has a line or hunk but no file`);
  });
  (c.drops ?? []).forEach((d, i) => {
    if (!d.file || !d.hunk?.trim()) throw new Error(`bad request for changes: dropped hunk ${i + 1} needs a file and its hunk text`);
  });
  if (!general && !c.comments?.length && !c.drops?.length) throw new Error('request for changes is empty');
  const parts = ['## Human review', ''];
  if (general) parts.push('### General comment', '', general, '');
  for (const cm of c.comments ?? []) parts.push(`- ${cm.file}${cm.line ? `, line ${cm.line}` : ''}: ${cm.text.trim()}`);
  for (const d of c.drops ?? []) parts.push(`- revert in ${d.file}: ${d.hunk.split('\n')[0]}`);
  const fix = (fixRuns.get(t) ?? 0) + 1;
  fixRuns.set(t, fix);
  setStatus(host, t, 'pending', {
    kind: 'changes_requested',
    data: { comments: c.comments?.length ?? 0, drops: c.drops?.length ?? 0, request: fix, fix, general: !!general, source: 'review' },
  });
  return { request: fix, fix, body: `${parts.join('\n')}\n` };
}

/** The fake accept/undo/reject/request-changes handlers, to spread into FakeBackend's map. */
export function reviewHandlers(host: ReviewHost) {
  return {
    'ReviewService.PlanAccept': (id: string, input: AcceptInput) => plan(host, id, input),
    'ReviewService.Accept': (id: string, input: AcceptInput) => accept(host, id, input),
    'ReviewService.UndoAccept': (id: string) => undo(host, id),
    'ReviewService.Reject': (id: string) => {
      const t = task(host, id);
      mustBecome(t, 'rejected');
      setStatus(host, t, 'rejected', { kind: 'rejected', data: { deleted: [], at: new Date().toISOString() } });
    },
    'ReviewService.RequestChanges': (id: string, c: ChangeRequest) => requestChanges(host, id, c),
    'ReviewService.TaskBranches': (id: string) => fakeTaskBranches(task(host, id)),
    'ReviewService.RejectDeletingBranches': (id: string, confirm: TaskBranch[]) => {
      const t = task(host, id);
      mustBecome(t, 'rejected');
      const have = fakeTaskBranches(t);
      if (JSON.stringify(have) !== JSON.stringify(confirm ?? [])) {
        throw new Error(`not confirmed: would delete ${have.map((b) => b.name).join(', ')}`);
      }
      const rec = { deleted: have, at: new Date().toISOString() };
      setStatus(host, t, 'rejected', { kind: 'rejected', data: rec });
      return rec;
    },
  };
}

/** The fake task's branches: the task branch and its leftovers. */
function fakeTaskBranches(t: TaskDetail): TaskBranch[] {
  if (!t.branch) return [];
  return [
    { name: t.branch, sha: '9b8e7710', unique: 2 },
    { name: `${t.branch}--leftovers`, sha: '4c1d2e30', unique: 1 },
  ];
}

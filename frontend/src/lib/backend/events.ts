// The task events, as backend/task declares them: one payload per kind
// (Go: task.EventKind constants, one struct per kind; JSON names here).
// The live feed (FeedItem) and the history (TaskEvent) carry these.
import type { Role, Status, Verdict } from './types';
import type { AcceptRecord, TaskBranch } from './review-api';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type ExecOutcome = 'succeeded' | 'failed' | 'stopped' | 'stalled' | 'transient' | 'limited' | 'rotated';
export type Delivery = 'live' | 'next_step';

export interface EventUsage {
  tokens_in: number;
  tokens_out: number;
  cache_read: number;
  cache_write: number;
  cost_usd: number;
}

/** An agent role, or the verification gate's own step. */
export type StepRole = Role | 'verify';

export type VerifyOutcome = 'passed' | 'failed' | 'timed_out' | 'output_limit' | 'stopped' | 'not_started' | 'skipped';

/** One run of the verify command (Go: task.VerifyRun). */
export interface VerifyRun {
  execution?: number;
  step?: string;
  iteration?: number;
  round?: number;
  command: string;
  source?: 'task' | 'repo' | 'settings';
  /** "task" (the gate), "queue" (a merge queue landing) or "manual" (boof-runner verify ID). */
  where?: 'task' | 'queue' | 'manual';
  outcome: VerifyOutcome;
  exit_code: number;
  signal?: string;
  duration_ms: number;
  tail?: string;
  bytes?: number;
  restored?: number;
  error?: string;
}

export type QueueAction = 'added' | 'removed' | 'moved' | 'started' | 'retried' | 'waiting' | 'blocked' | 'sent_back' | 'requeued' | 'landed' | 'undone';

export interface StepEvent {
  /** The execution row of the step attempt. */
  execution: number;
  /** "developer", "reviewer-2"; absent in history written before it was recorded. */
  step?: string;
  role: StepRole;
  iteration: number;
  round: number;
  attempt: number;
}

/** A budget and its spend when an event was recorded (Go: task.BudgetSpend). */
export interface BudgetSpend {
  /** Its settings key below "budgets": "daily", "tools.codex.task". */
  scope: string;
  period: 'task' | 'daily' | 'monthly';
  tool?: string;
  mode: 'warn' | 'cap';
  limit_usd?: number;
  limit_tokens?: number;
  spent_usd: number;
  spent_tokens: number;
}

export type BreakerName = 'tool_calls' | 'repeat_failure' | 'no_progress' | 'token_velocity';

/** The payload of every event kind (Go: backend/task event*.go). */
export interface EventPayloads {
  created: { status: Status; command?: string };
  imported: { status: Status; origin_id?: string };
  edited: Record<string, never>;
  status_changed: { from: Status; to: Status; reason?: string };
  claimed: { runner: string };
  skip_changed: { skip: boolean };
  priority_changed: { priority: number };
  reordered: { anchor: string; after: boolean; priority: number };
  attachment_added: { name: string; size: number };
  attachment_removed: { name: string };
  stop_requested: Record<string, never>;
  /** text only in the live feed (the injection keeps it, not the history). */
  prompt_injected: { injection: number; bytes: number; text?: string };
  question_asked: { count: number };
  answered: { bytes: number };
  /** reason when the run was interrupted; completed when a decided run was finished. */
  recovered: { reason?: string; completed?: Status; at: string };
  exported: { via?: string; file?: string; bytes?: number };

  /** resumed_session: the native session the attempt continues; handoff_from: the tool whose handoff the prompt carries. */
  step_started: StepEvent & { tool: string; model: string; resumed_session?: string; handoff_from?: string };
  step_finished: StepEvent & { outcome: ExecOutcome; exit_code: number; usage: EventUsage; cost_estimated?: boolean };
  verdict: { role: Role; iteration: number; round: number; verdict: Verdict };
  retry_scheduled: { step: string; role?: Role; attempt: number; max_attempts?: number; delay_ms: number; reason?: string };
  planner_asked: { role: Role; questions: string[] };
  planner_answered: { role: Role; answer?: string };
  injection_applied: { injection: number; step: string; delivery: Delivery; error?: string };
  /** A read-only role changed the worktree: saved on ref (commit sha) and reverted. */
  stray_reverted: StepEvent & { files: string[]; head_moved?: boolean; ref: string; sha: string; unreverted?: string[]; error?: string };
  outcome_decided: { status: Status; cleanup?: string };
  verification: VerifyRun;
  budget_warning: BudgetSpend & { percent: number };
  budget_stopped: BudgetSpend & { step?: string; reason: string };
  circuit_broken: {
    breaker: BreakerName;
    step: string;
    limit: number;
    count: number;
    tool?: string;
    input?: string;
    error?: string;
    tokens?: number;
    window_ms?: number;
    reason: string;
  };
  /** A step's tool reached its usage limit: paused until resets_at (wait), or the step went on with switch_to. */
  limit_reached: {
    step: string;
    role?: Role;
    tool: string;
    resets_at: string;
    limit?: string;
    message?: string;
    warning?: string;
    action: 'wait' | 'switch';
    switch_to?: string;
    before?: boolean;
    /** The handoff file a switch wrote. */
    handoff?: string;
  };
  /** A step's session ran out of turns or context and went on in a fresh session from the handoff file. */
  session_rotated: { step: string; role?: Role; tool: string; reason: 'turns' | 'context'; rotation: number; max_rotations: number; from_session?: string; handoff?: string };
  /** The task was queued by a schedule's fire (caught_up: a fire missed while the app was closed). */
  scheduled: { schedule: string; name?: string; due: string; caught_up?: boolean };
  /** How a run began: start is "run", "fix", "resume" or "developer"; step its first step. */
  run_started: {
    iteration: number;
    start: 'run' | 'fix' | 'resume' | 'developer';
    step: string;
    run?: number;
    runs?: number;
    fix?: number;
    interrupted?: boolean;
  };
  /** A hunk the user dropped was reverted in a "Drop hunk" commit (none when it already was). */
  hunk_dropped: { file: string; index: number; header: string; commit?: string };

  note: { level: LogLevel; text: string };
  text: { text: string };
  tool_call: { tool: string; call_id?: string; input: string };
  tool_result: { call_id?: string; output: string; is_error?: boolean };
  tool_retry: { attempt: number; max_attempts: number; delay_ms?: number; error_status?: number; message?: string };
  question: { text: string };
  usage: { usage: EventUsage };

  /** The accept record, as ReviewService.Accept returns it. */
  accepted: AcceptRecord;
  accept_undone: AcceptRecord;
  rejected: { deleted: TaskBranch[]; at: string };
  changes_requested: {
    comments: number;
    drops: number;
    /** The change request and its fix run's number; absent in older history. */
    request?: number;
    fix?: number;
    general?: boolean;
    /** "review", "conflicts" or another sender's name. */
    source?: string;
  };
  accept_reconciled: { op: 'accept' | 'undo'; ref: string; old: string; new: string; completed: boolean; detail: string };
  merge_queue: { action: QueueAction; entry: number; target: string; strategy?: string; reason?: string; files?: string[]; old?: string; new?: string };
}

export type EventKind = keyof EventPayloads;

/** An event of a known kind: a union keyed by kind, data typed by it. */
export type TypedEvent<K extends EventKind = EventKind> = { [P in K]: { kind: P; data: EventPayloads[P] } }[K];

/** The kinds the live feed shows (usage goes to the runner status instead). */
export type FeedKind = Exclude<EventKind, 'usage'>;

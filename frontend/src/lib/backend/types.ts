// JSON shapes exchanged with the Go services (see CONTRACT.md), shared by the
// API slices (*-api.ts; api.ts composes them into Api). Keys are snake_case;
// timestamps are RFC3339 strings. What the events carry (their payloads and
// the vocabulary in them: statuses, roles, event kinds) is generated from Go
// into events.gen.ts; this module only re-exports it and imports nothing else.
import type { Delivery, EventKind, FeedItem, ROLES, Status, Verdict, VerifyOutcome } from './events.gen';

export { ACTIVE_QUEUE_STATES, EVENT_NAMES, ROLES, STATUSES } from './events.gen';
export type {
  EventKind,
  EventName,
  FeedItem,
  OutputBatch,
  PausedTool,
  Payload,
  QueueState,
  RunnerStatus,
  RunningInfo,
  Status,
  TaskEventPayloads,
  TypedEvent,
  UIRequest,
  Verdict,
  VerifyRun,
  View as UIView,
} from './events.gen';

/** An agent role (the verify gate is a step, not an agent role). */
export type Role = (typeof ROLES)[number];

export interface TaskView {
  id: string;
  title: string;
  prompt: string;
  status: Status;
  priority: number;
  position: number;
  skip: boolean;
  labels: string[];
  runs: number;
  completed_runs: number;
  base: string;
  repo: string;
  created_at: string;
  updated_at: string;
  started_at?: string;
  finished_at?: string;
  error?: string;
  branch?: string;
  questions?: string[];
  /** The earliest time the queue may start it; absent: any time. */
  not_before?: string;
  /** Where it runs: "local" (this machine) or "kubernetes" (a Job of the cluster); absent: where the settings send a task that does not choose. */
  executor?: TaskExecutor;
}

/** Where a task runs (Go: task.Executor): this machine or a Job of the cluster the settings name. */
export type TaskExecutor = 'local' | 'kubernetes';

export interface ListFilter {
  status?: string;
  search?: string;
  label?: string;
}

export interface CreateTaskInput {
  title: string;
  prompt: string;
  priority: number;
  base: string;
  labels: string[];
  runs: number;
  /** Command template id (its name); its text is copied into the task. "" = none. */
  command?: string;
  /** Files the agents get the paths of, stored with the task at once. */
  attachments?: AttachmentInput[];
  /** Start at (RFC 3339); absent: now. A time in the past runs now. */
  not_before?: string;
  /** The repository the task runs in (an absolute path); "" or absent: the settings' working directory. */
  repo?: string;
  /** Where it runs; absent: where the settings send a task that does not choose. */
  executor?: TaskExecutor;
}

export interface ToolChoice {
  tool: string;
  model: string;
}

/** A role's setting: its tool and model, and whether it may change the worktree (only the developer by default). */
export interface RoleChoice extends ToolChoice {
  write: boolean;
}

export interface Attachment {
  name: string;
  size: number;
  added_at: string;
  /** Absolute path of the task's copy, outside the worktree: what every prompt lists. */
  path: string;
}

export interface Report {
  /** An agent role, or "verify": one run of the verification gate (its verdict the run's outcome). */
  role: Role | 'verify';
  round: number;
  iteration: number;
  verdict?: Verdict | VerifyOutcome;
  body: string;
  created_at: string;
}

export type InjectDelivery = Delivery;

export interface Injection {
  id: string;
  text: string;
  delivery: InjectDelivery;
  applied: boolean;
  /** The step it was (or will be) applied to. */
  step?: string;
  created_at: string;
}

/**
 * One entry of a task's history: a stored event, its kind and payload as
 * backend/task declares them (TaskEventPayloads). A kind this version does not
 * know arrives with its stored payload; describeEvent renders either.
 */
export interface TaskEvent {
  at: string;
  kind: EventKind | (string & {});
  data: unknown;
}

export interface Usage {
  tokens_in: number;
  tokens_out: number;
  cost_usd: number;
}

export interface TaskDetail extends TaskView {
  command: string;
  /** The task's copy of its command template's text (made when it was added): what the agents get. */
  command_text: string;
  attachments: Attachment[];
  /** Usage per role (key: the role), in pipeline order. */
  usage_by_role: UsageRow[];
  tools: Partial<Record<Role, ToolChoice>>;
  answers: string;
  reports: Report[];
  injections: Injection[];
  events: TaskEvent[];
  log: string;
  usage: Usage;
}

export interface TaskUpdate {
  title: string;
  prompt: string;
  labels: string[];
  priority: number;
  runs: number;
  base: string;
  command: string;
  tools: Partial<Record<Role, ToolChoice>>;
}

/** A task imported from a file, and what the import noted (unknown keys and sections kept, a status mapped). */
export interface ImportResult {
  task: TaskView;
  notes: string[];
}

export interface DeleteOptions {
  delete_branches: boolean;
}

export interface AttachmentInput {
  name: string;
  data_base64: string;
}

// ---- running task -------------------------------------------------------
// RunnerStatus (runner:status), OutputBatch (task:output:<id>) and FeedItem
// are event payloads: generated, re-exported above.

export interface OutputSnapshot {
  task_id: string;
  feed: FeedItem[];
  terminal: string;
  transcript_bytes: number;
}

export interface TranscriptPage {
  data: string;
  offset: number;
  total: number;
}

export interface InjectResult {
  injection_id: string;
  delivery: InjectDelivery;
  /** A sentence for the user about where the prompt went, when the backend has one. */
  message?: string;
}

// ---- commands ----------------------------------------------------------

export interface Command {
  id: string;
  name: string;
  body: string;
  updated_at: string;
}

export interface CommandInput {
  id: string;
  name: string;
  body: string;
}

// ---- settings ----------------------------------------------------------

export interface Settings {
  working_directory: string;
  runner_enabled: boolean;
  concurrency: number;
  notifications: boolean;
  close_to_tray: boolean;
  /** Start the app hidden in the tray at login (an XDG autostart entry). */
  start_at_login: boolean;
  /** Tool used for a role with no tool of its own. */
  default_tool: string;
  roles: {
    planner: RoleChoice;
    refinement: RoleChoice;
    developer: RoleChoice;
    observer: RoleChoice | null;
    reviewer: RoleChoice;
  };
  review: { gate: boolean; max_fix_rounds: number; max_inline_diff_bytes: number };
  worktree: { root: string; on_done: 'keep-branch' | 'keep' | 'delete'; on_failure: 'keep' | 'delete' };
  retries: { transient: number; backoff_ms: number[]; idle_timeout_ms: number };
  stop: { grace_ms: number };
  /** Budgets of all tools (null: none); per-tool budgets stay in the file. */
  budgets: { task: BudgetLimit | null; daily: BudgetLimit | null; monthly: BudgetLimit | null };
  /** Per-step circuit breakers; 0 turns one off. */
  breakers: Breakers;
  /** What a task does at a tool's usage limit (older backends may leave it out). */
  limits?: Limits;
  /** The cluster tasks can run in (read-only: Save keeps the stored one; older backends leave it out). */
  executor?: ExecutorView;
}

/**
 * settings.executor as the window needs it (Go: app.ExecutorView): whether a
 * cluster is configured (an image named), where a task that does not choose
 * runs, and the cluster's kubeconfig context ("" = its current one) and namespace.
 */
export interface ExecutorView {
  cluster: boolean;
  default: TaskExecutor;
  context: string;
  namespace: string;
}

/**
 * On a usage limit a task waits for the reset, or switches: the step goes on
 * with the first other tool of switch_order that is installed and not paused
 * (a tool not in the list never switches; [] switches nothing).
 */
export interface Limits {
  on_limit: 'wait' | 'switch';
  switch_order: string[];
}

/** One budget: a limit in US dollars and/or tokens (null: none of that kind). */
export interface BudgetLimit {
  usd: number | null;
  tokens: number | null;
  mode: 'warn' | 'cap';
}

export interface Breakers {
  tool_calls: number;
  repeat_failures: number;
  no_progress: number;
  tokens_per_minute: number;
  velocity_window_ms: number;
}

/** One budget and its spend now (Go: budget.Line). */
export interface BudgetLine {
  /** Settings key below "budgets": "daily", "tools.codex.task". */
  scope: string;
  period: 'task' | 'daily' | 'monthly';
  tool?: string;
  mode: 'warn' | 'cap';
  limit_usd?: number;
  limit_tokens?: number;
  spent_usd: number;
  spent_tokens: number;
  /** For a task budget: the task nearest to (or over) it. */
  task_id?: string;
  percent: number;
  reached: boolean;
  /** Reached in cap mode: the queue starts nothing it covers. */
  blocking: boolean;
  over?: number;
  resets?: string;
}

/** A task a budget stopped; held_by is set while a cap still holds it. */
export interface BudgetStoppedTask {
  id: string;
  title: string;
  reason: string;
  held_by?: string;
}

/** Spend against every budget (Go: budget.Report). */
export interface BudgetReport {
  now: string;
  location: string;
  lines: BudgetLine[];
  breakers: { toolCalls: number; repeatFailures: number; noProgress: number; tokensPerMinute: number; velocityWindowMs: number };
  stopped: BudgetStoppedTask[];
  /** Pending tasks a cap holds back. */
  held: number;
}

export interface BudgetRetryResult {
  retried: BudgetStoppedTask[];
  held: BudgetStoppedTask[];
}

export interface FieldError {
  path: string;
  message: string;
}

export interface SaveSettingsResult {
  saved: boolean;
  errors: FieldError[];
  settings: Settings;
  /** Set by Get when settings.json could not be read: defaults are shown until saved. */
  load_error?: string;
}

export interface ToolHealth {
  tool: string;
  installed: boolean;
  version: string;
  authenticated: boolean;
  reachable?: boolean;
  path?: string;
  error?: string;
  checked_at: string;
}

export interface UsageRange {
  from: string;
  to: string;
}

export interface UsageRow extends Usage {
  key: string;
  executions?: number;
  cache_read?: number;
  cache_write?: number;
}

export interface UsageSummary {
  by_day: UsageRow[];
  by_tool: UsageRow[];
  by_model: UsageRow[];
  by_task: UsageRow[];
  by_role: UsageRow[];
}

// ---- review (issue 9 entry points) -------------------------------------

export type FileChange = 'added' | 'modified' | 'deleted' | 'renamed';

export interface DiffFile {
  path: string;
  old_path?: string;
  change: FileChange;
  additions: number;
  deletions: number;
  binary: boolean;
  /** A rename's or copy's similarity in percent. */
  similarity?: number;
  /** Git modes ("100644", "100755", "120000"; "000000" when absent) and whether an existing file's mode changed. */
  old_mode?: string;
  new_mode?: string;
  mode_changed?: boolean;
  /** The file's content at the end of the change: what a viewed mark holds. */
  hash?: string;
  /** The highlight.js language its path suggests ("" none). */
  language?: string;
}

export interface DiffSummary {
  task_id: string;
  base: string;
  head: string;
  files: DiffFile[];
}

export interface CommitInfo {
  sha: string;
  subject: string;
  author: string;
  date: string;
}

export interface FilePatch {
  path: string;
  patch: string;
  binary: boolean;
  too_large: boolean;
  bytes: number;
}

/** An uncaught front-end error, reported to the Go log (DiagService). */
export interface FrontendError {
  kind: 'error' | 'unhandledrejection';
  message: string;
  source: string;
  line: number;
  column: number;
  stack: string;
}

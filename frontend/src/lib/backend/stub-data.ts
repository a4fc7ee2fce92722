// Data for the stubs of component tests: tasks as the services return them.
// Only shapes and example values; no rule of the Go side lives here.
import type { PullRequestView } from './forge-api';
import type { BudgetReport, FeedItem, RunnerStatus, TaskDetail, TaskView, ToolHealth, UsageRange, UsageRow, UsageSummary } from './types';

const AT = '2026-11-30T10:00:00Z';

/** A pending task as TaskService returns it; over changes fields. */
export function taskView(over: Partial<TaskView> & { id: string }): TaskView {
  return {
    title: '',
    prompt: 'Do the thing',
    status: 'pending',
    priority: 0,
    position: 0,
    skip: false,
    labels: [],
    runs: 1,
    completed_runs: 0,
    base: '',
    repo: '/home/dev/project',
    created_at: AT,
    updated_at: AT,
    ...over,
  };
}

/** A task's detail as TaskService.Get returns it; over changes fields. */
export function taskDetail(over: Partial<TaskDetail> & { id: string }): TaskDetail {
  return {
    ...taskView(over),
    command: '',
    command_text: '',
    attachments: [],
    usage_by_role: [],
    tools: {},
    answers: '',
    reports: [],
    injections: [],
    events: [{ at: over.created_at ?? AT, kind: 'created', data: { status: over.status ?? 'pending' } }],
    log: '',
    usage: { tokens_in: 0, tokens_out: 0, cost_usd: 0 },
    ...over,
  };
}

/** The detail of a listed task. */
export function detailOf(t: TaskView, over: Partial<TaskDetail> = {}): TaskDetail {
  return taskDetail({ ...t, ...over });
}

/** The view of a task's detail, as List returns it. */
export function viewOf(d: TaskDetail): TaskView {
  const { command: _c, command_text: _ct, attachments: _a, usage_by_role: _u, tools: _t, answers: _an, reports: _r, injections: _i, events: _e, log: _l, usage: _us, ...v } = d;
  return v;
}

/** A queue of tasks in every status, as a user's list may hold them (the archived one last). */
export const DEMO: TaskView[] = [
  taskView({ id: 't01', title: 'Add dark mode to the settings page', status: 'ongoing', labels: ['ui'], branch: 'boof-runner/t01', started_at: '2026-11-30T09:56:00Z', updated_at: '2026-11-30T09:56:00Z' }),
  taskView({ id: 't02', title: 'Fix flaky worktree test', priority: 2, position: 1, labels: ['tests'], updated_at: '2026-11-30T09:30:00Z' }),
  taskView({ id: 't03', title: 'Document the CLI', position: 2, labels: ['docs'], updated_at: '2026-11-30T09:15:00Z' }),
  taskView({ id: 't04', title: 'Upgrade go-sqlite3', position: 3, skip: true, labels: ['deps'], updated_at: '2026-11-30T09:10:00Z' }),
  taskView({ id: 't05', title: 'Rate limiter for the API client', status: 'actions', labels: ['backend'], questions: ['Should the limit be per host or global?', 'What should happen when the bucket is empty: wait or fail?'], updated_at: '2026-11-30T08:50:00Z' }),
  taskView({ id: 't06', title: 'Refactor settings loader', status: 'done', labels: ['backend'], branch: 'boof-runner/t06', updated_at: '2026-11-30T08:00:00Z' }),
  taskView({ id: 't07', title: 'Rename the module path', status: 'done', labels: ['big-diff'], branch: 'boof-runner/t07', updated_at: '2026-11-30T07:30:00Z' }),
  taskView({ id: 't08', title: 'Parse codex usage lines', status: 'failed', labels: ['agent'], branch: 'boof-runner/t08', error: 'review not approved: reviewer CHANGES_REQUESTED', updated_at: '2026-11-30T06:40:00Z' }),
  taskView({ id: 't09', title: 'Try a new icon', status: 'stopped', labels: ['ui'], branch: 'boof-runner/t09', error: 'stopped by the user; work kept in the worktree', updated_at: '2026-11-30T05:40:00Z' }),
  taskView({ id: 't10', title: 'Sketch: plugin system', status: 'draft', updated_at: '2026-11-30T03:20:00Z' }),
  taskView({ id: 't11', title: 'Old experiment', status: 'archived', labels: ['perf'], updated_at: '2026-11-28T00:00:00Z' }),
];

/** The demo task titled title. */
export function demo(title: string): TaskView {
  const t = DEMO.find((x) => x.title === title);
  if (!t) throw new Error(`no demo task "${title}"`);
  return structuredClone(t);
}

/** What List answers for the demo tasks: archived ones only when asked for. */
export function listDemo(filter: { status?: string }): TaskView[] {
  return DEMO.filter((t) => (filter.status === 'archived' ? t.status === 'archived' : t.status !== 'archived'));
}

/** The runner's status with the given tasks running at the developer step. */
export function runnerStatus(running: TaskView[] = [], over: Partial<RunnerStatus> = {}): RunnerStatus {
  return {
    enabled: true,
    lock_held: true,
    running: running.map((t) => ({
      task_id: t.id,
      title: t.title,
      role: 'developer',
      round: 1,
      iteration: 1,
      iterations: t.runs,
      started_at: t.started_at ?? t.updated_at,
      step_started_at: t.updated_at,
      tool: 'claude-code',
      model: 'sonnet',
      usage: { tokens_in: 48_200, tokens_out: 6_100, cache_read: 0, cache_write: 0, cost_usd: 0.42 },
      resources: { processes: 3, rss_bytes: 180 << 20, cpu_seconds: 12 },
    })),
    ...over,
  };
}

/** n feed items of an agent at work, numbered from seq + 1: text, tool calls and their results. */
export function feedItems(n: number, seq = 0): FeedItem[] {
  const out: FeedItem[] = [];
  for (let i = 1; i <= n; i++) {
    const s = seq + i;
    const base = { seq: s, at: AT, role: 'developer' as const };
    const call = `c${Math.ceil(s / 3)}`;
    if (s % 3 === 1) out.push({ ...base, kind: 'text', data: { text: `Looking at step ${s}.` } });
    else if (s % 3 === 2) out.push({ ...base, kind: 'tool_call', data: { tool: 'Bash', call_id: call, input: `go test ./... -run T${s}` } });
    else out.push({ ...base, kind: 'tool_result', data: { call_id: call, output: `ok  \tpkg${s}\t0.0${s % 10}s` } });
  }
  return out;
}

/** The tools' health as SettingsService.ToolHealth returns it: codex not checked yet. */
export function toolHealth(at = AT): ToolHealth[] {
  return [
    { tool: 'claude-code', installed: true, version: '2.1.3', authenticated: true, checked_at: at },
    { tool: 'codex', installed: true, version: '0.61.0', authenticated: false, error: 'not checked yet: press Test', checked_at: at },
    { tool: 'mock', installed: true, version: 'built-in', authenticated: true, checked_at: at },
  ];
}

/** The models of each tool, as SettingsService.Models returns them. */
export const MODELS: Record<string, string[]> = { 'claude-code': ['opus', 'sonnet', 'haiku'], codex: ['gpt-5', 'gpt-5-codex', 'o4-mini'], mock: ['mock'] };

/** Usage per day of a range, as SettingsService.Usage returns it (other breakdowns empty). */
export function usageOf(range: UsageRange): UsageSummary {
  const by_day: UsageRow[] = [];
  for (let d = Date.parse(`${range.from}T00:00:00Z`); d <= Date.parse(`${range.to}T00:00:00Z`); d += 86_400_000) {
    by_day.push({ key: new Date(d).toISOString().slice(0, 10), tokens_in: 1000, tokens_out: 100, cost_usd: 0.1 });
  }
  return { by_day, by_tool: [], by_model: [], by_task: [], by_role: [] };
}

/** A budget report, as SettingsService.Budget returns it: no budget unless lines are given. */
export function budgetReport(over: Partial<BudgetReport> = {}): BudgetReport {
  return { now: AT, location: 'UTC', lines: [], breakers: { toolCalls: 200, repeatFailures: 3, noProgress: 12, tokensPerMinute: 400_000, velocityWindowMs: 30_000 }, stopped: [], held: 0, ...over };
}

/** A task's pull request as ForgeService.PullRequest gives it: never pushed unless `over` says so. */
export function pullRequest(taskId: string, over: Partial<PullRequestView> = {}): PullRequestView {
  return { task_id: taskId, pushed: false, remote: '', branch: '', pushed_sha: '', forge: '', host: '', project: '', number: 0, url: '', state: '', review: '', checks: [], merge_sha: '', problem: '', synced_at: '', ...over };
}

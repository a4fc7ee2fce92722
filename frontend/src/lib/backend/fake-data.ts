import type { Settings, TaskDetail, UsageRow, UsageSummary, UsageRange, Status, Role } from './types';

/** Deterministic pseudo-random numbers so fake data is stable across runs. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

export function blankDetail(base: Partial<TaskDetail> & { id: string; prompt: string; created_at: string }): TaskDetail {
  return {
    title: '',
    status: 'pending',
    priority: 0,
    position: 0,
    skip: false,
    labels: [],
    runs: 1,
    completed_runs: 0,
    base: '',
    repo: '/home/dev/project',
    updated_at: base.created_at,
    command: '',
    command_text: '',
    attachments: [],
    usage_by_role: [],
    tools: {},
    answers: '',
    reports: [],
    injections: [],
    events: [{ at: base.created_at, kind: 'created', data: { status: base.status ?? 'pending' } }],
    log: '',
    usage: { tokens_in: 0, tokens_out: 0, cost_usd: 0 },
    ...base,
  };
}

function at(now: Date, minutesAgo: number): string {
  return new Date(now.getTime() - minutesAgo * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

interface Seed {
  title: string;
  prompt: string;
  status: Status;
  ago: number;
  priority?: number;
  labels?: string[];
  skip?: boolean;
  error?: string;
  questions?: string[];
}

const SEEDS: Seed[] = [
  { title: 'Add dark mode to the settings page', prompt: 'Add a dark mode toggle to the settings page that follows the system by default.', status: 'ongoing', ago: 4, labels: ['ui'] },
  { title: 'Fix flaky worktree test', prompt: 'TestProvisionReuse fails one run in twenty on CI. Find out why and fix it.', status: 'pending', ago: 30, priority: 2, labels: ['tests'] },
  { title: 'Document the CLI', prompt: 'Write the CLI reference section of the README from the --help output.', status: 'pending', ago: 45, labels: ['docs'] },
  { title: 'Upgrade go-sqlite3', prompt: 'Upgrade mattn/go-sqlite3 to the latest 1.14.x and run the store tests.', status: 'pending', ago: 50, skip: true, labels: ['deps'] },
  { title: 'Rate limiter for the API client', prompt: 'Add a token-bucket rate limiter to the HTTP client.', status: 'actions', ago: 70, labels: ['backend'], questions: ['Should the limit be per host or global?', 'What should happen when the bucket is empty: wait or fail?'] },
  { title: 'Refactor settings loader', prompt: 'Split settings.go into schema, defaults and validation.', status: 'done', ago: 120, labels: ['backend'] },
  { title: 'Rename the module path', prompt: 'Rename the Go module path everywhere, 5000 files.', status: 'done', ago: 150, labels: ['big-diff'] },
  { title: 'Parse codex usage lines', prompt: 'Read token usage from codex exec JSON output.', status: 'failed', ago: 200, labels: ['agent'], error: 'review not approved: reviewer CHANGES_REQUESTED' },
  { title: 'Try a new icon', prompt: 'Draw a new tray icon in three states.', status: 'stopped', ago: 260, labels: ['ui'], error: 'stopped by the user; work kept in the worktree' },
  { title: 'Sketch: plugin system', prompt: 'Think about a plugin system for custom roles.', status: 'draft', ago: 400 },
  { title: 'Old experiment', prompt: 'Benchmark JSON decoders.', status: 'archived', ago: 3000, labels: ['perf'] },
];

export function seedTasks(now: Date): TaskDetail[] {
  return SEEDS.map((s, i) => {
    const created = at(now, s.ago + 10);
    const id = `t${(1_900_000 + i).toString(36)}${String.fromCharCode(97 + i)}`;
    const d = blankDetail({ id, prompt: s.prompt, created_at: created });
    d.title = s.title;
    d.status = s.status;
    d.priority = s.priority ?? 0;
    d.position = i;
    d.labels = s.labels ?? [];
    d.skip = s.skip ?? false;
    d.updated_at = at(now, s.ago);
    if (s.error) d.error = s.error;
    if (s.questions) d.questions = s.questions;
    if (s.status !== 'pending' && s.status !== 'draft') {
      d.started_at = at(now, s.ago + 5);
      d.branch = `boof-runner/${id}`;
      d.events.push({ at: d.started_at, kind: 'status_changed', data: { from: 'pending', to: 'ongoing', reason: 'claimed' } });
    }
    if (['done', 'failed', 'stopped'].includes(s.status)) {
      d.finished_at = d.updated_at;
      d.reports = sampleReports(d.started_at!, s.status === 'failed');
      d.log = `base main → 3f2a9c1\nworktree ${d.branch}\nReviewer verdict (round 1): ${s.status === 'failed' ? 'CHANGES_REQUESTED' : 'APPROVE'}\n`;
      const verdict = s.status === 'failed' ? 'CHANGES_REQUESTED' : 'APPROVE';
      const step = { execution: 5 + i, step: 'reviewer-1', role: 'reviewer' as const, iteration: 1, round: 1, attempt: 1 };
      d.events.push(
        { at: d.updated_at, kind: 'step_started', data: { ...step, tool: 'claude', model: 'sonnet' } },
        { at: d.updated_at, kind: 'step_finished', data: { ...step, outcome: 'succeeded', exit_code: 0, usage: { tokens_in: 9_000, tokens_out: 1_200, cache_read: 0, cache_write: 0, cost_usd: 0.12 } } },
        { at: d.updated_at, kind: 'verdict', data: { role: 'reviewer', iteration: 1, round: 1, verdict } },
        { at: d.updated_at, kind: 'status_changed', data: { from: 'ongoing', to: s.status } },
      );
      d.usage = { tokens_in: 182_000 + i * 1000, tokens_out: 21_000 + i * 100, cost_usd: 1.84 + i / 10 };
      d.usage_by_role = roleUsage(d.usage);
    }
    return d;
  });
}

/** Splits a task's usage over the roles, in pipeline order. */
function roleUsage(u: TaskDetail['usage']): UsageRow[] {
  const weights: [Role, number][] = [['planner', 0.15], ['refinement', 0.1], ['developer', 0.5], ['observer', 0.1], ['reviewer', 0.15]];
  return weights.map(([key, w]) => ({ key, executions: 1, tokens_in: Math.round(u.tokens_in * w), tokens_out: Math.round(u.tokens_out * w), cost_usd: Math.round(u.cost_usd * w * 100) / 100 }));
}

function sampleReports(startedAt: string, failed: boolean): TaskDetail['reports'] {
  const roles: Role[] = ['planner', 'refinement', 'developer', 'observer', 'reviewer'];
  const reports: TaskDetail['reports'] = roles.map((role) => ({
    role,
    round: 1,
    iteration: 1,
    body: `## ${role} report\n\nDid the ${role} work.` + (role === 'observer' ? '\n\n- Missing a test for the empty case.\n\nVERDICT: CHANGES_REQUESTED' : role === 'reviewer' ? `\n\nVERDICT: ${failed ? 'CHANGES_REQUESTED' : 'APPROVE'}` : ''),
    created_at: startedAt,
    ...(role === 'observer' ? { verdict: 'CHANGES_REQUESTED' as const } : role === 'reviewer' ? { verdict: failed ? ('CHANGES_REQUESTED' as const) : ('APPROVE' as const) } : {}),
  }));
  reports.splice(4, 0, { role: 'observer', round: 2, iteration: 1, body: 'Test added.\n\nVERDICT: APPROVE', verdict: 'APPROVE', created_at: startedAt });
  return reports;
}

export function defaultSettings(): Settings {
  return {
    working_directory: '/home/dev/project',
    runner_enabled: true,
    concurrency: 1,
    notifications: true,
    close_to_tray: true,
    start_at_login: false,
    default_tool: 'claude-code',
    roles: {
      planner: { tool: 'claude-code', model: 'opus', write: false },
      refinement: { tool: 'claude-code', model: 'opus', write: false },
      developer: { tool: 'claude-code', model: 'sonnet', write: true },
      observer: { tool: 'codex', model: 'gpt-5', write: false },
      reviewer: { tool: 'claude-code', model: 'opus', write: false },
    },
    review: { gate: true, max_fix_rounds: 2, max_inline_diff_bytes: 120000 },
    worktree: { root: '', on_done: 'keep-branch', on_failure: 'keep' },
    retries: { transient: 2, backoff_ms: [30000, 120000], idle_timeout_ms: 1200000 },
    stop: { grace_ms: 5000 },
  };
}

export const MODELS: Record<string, string[]> = {
  'claude-code': ['opus', 'sonnet', 'haiku'],
  codex: ['gpt-5', 'gpt-5-codex', 'o4-mini'],
  mock: ['mock'],
};

export function usageFor(range: UsageRange, taskIds: string[]): UsageSummary {
  const rnd = seeded(7);
  const from = new Date(range.from + 'T00:00:00Z');
  const to = new Date(range.to + 'T00:00:00Z');
  const days: UsageRow[] = [];
  for (let d = new Date(from); d <= to && days.length < 400; d = new Date(d.getTime() + 86_400_000)) {
    const tin = Math.round(rnd() * 400_000);
    days.push({ key: d.toISOString().slice(0, 10), tokens_in: tin, tokens_out: Math.round(tin / 9), cost_usd: Math.round(tin / 1000) / 10 });
  }
  const total = days.reduce((a, r) => a + r.tokens_in, 0);
  const split = (keys: string[], weights: number[]): UsageRow[] =>
    keys.map((key, i) => {
      const tin = Math.round(total * weights[i]);
      return { key, tokens_in: tin, tokens_out: Math.round(tin / 9), cost_usd: Math.round(tin / 1000) / 10 };
    });
  return {
    by_day: days,
    by_tool: split(['claude-code', 'codex'], [0.7, 0.3]),
    by_model: split(['opus', 'sonnet', 'gpt-5'], [0.4, 0.3, 0.3]),
    by_task: split(taskIds.slice(0, 5), [0.35, 0.25, 0.2, 0.12, 0.08]),
    by_role: split(['planner', 'refinement', 'developer', 'observer', 'reviewer'], [0.15, 0.1, 0.5, 0.1, 0.15]),
  };
}

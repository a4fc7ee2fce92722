import type { BudgetLimit, BudgetLine, BudgetReport, Settings, TaskDetail } from './types';

/** The stop reason the Go side records for a reached cap (budget.Reason). */
export function capReason(period: string, l: BudgetLimit): string {
  const limit = l.usd !== null ? `$${l.usd.toFixed(2)}` : `${(l.tokens ?? 0).toLocaleString('en-US')} tokens`;
  return `budget: ${period} cap ${limit} reached`;
}

function percent(l: BudgetLimit, usd: number, tokens: number): number {
  let p = 0;
  if (l.usd) p = Math.max(p, (usd / l.usd) * 100);
  if (l.tokens) p = Math.max(p, (tokens / l.tokens) * 100);
  return p;
}

/**
 * Spend against the budgets for the fake backend (budget.Snapshot): the
 * day's and the month's spend are every task's usage; a task budget shows
 * the task nearest to it. A task stopped by a budget is held while its cap
 * is still reached.
 */
export function budgetReport(s: Settings, tasks: TaskDetail[], now: Date): BudgetReport {
  const lines: BudgetLine[] = [];
  const total = tasks.reduce((a, t) => ({ usd: a.usd + t.usage.cost_usd, tokens: a.tokens + t.usage.tokens_in + t.usage.tokens_out }), { usd: 0, tokens: 0 });
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  for (const period of ['task', 'daily', 'monthly'] as const) {
    const l = s.budgets[period];
    if (!l || (l.usd === null && l.tokens === null)) continue;
    let spent = total;
    let taskId: string | undefined;
    let over = 0;
    if (period === 'task') {
      spent = { usd: 0, tokens: 0 };
      for (const t of tasks) {
        const ts = { usd: t.usage.cost_usd, tokens: t.usage.tokens_in + t.usage.tokens_out };
        if (percent(l, ts.usd, ts.tokens) >= 100) over++;
        if (!taskId || percent(l, ts.usd, ts.tokens) > percent(l, spent.usd, spent.tokens)) [spent, taskId] = [ts, t.id];
      }
    }
    const p = percent(l, spent.usd, spent.tokens);
    lines.push({
      scope: period, period, mode: l.mode, spent_usd: spent.usd, spent_tokens: spent.tokens, percent: p,
      reached: p >= 100, blocking: p >= 100 && l.mode === 'cap',
      ...(l.usd !== null ? { limit_usd: l.usd } : {}), ...(l.tokens !== null ? { limit_tokens: l.tokens } : {}),
      ...(taskId ? { task_id: taskId } : {}), ...(over ? { over } : {}),
      ...(period === 'daily' ? { resets: day.toISOString() } : period === 'monthly' ? { resets: month.toISOString() } : {}),
    });
  }
  const blocking = lines.find((l) => l.blocking && l.period !== 'task');
  const held = (t: TaskDetail) => (blocking ? capReason(blocking.period, s.budgets[blocking.period]!) : '');
  const stopped = tasks
    .filter((t) => t.status === 'stopped' && t.error?.startsWith('budget:'))
    .map((t) => ({ id: t.id, title: t.title, reason: t.error ?? '', ...(held(t) ? { held_by: held(t) } : {}) }));
  const b = s.breakers;
  return {
    now: now.toISOString(), location: 'UTC', lines, stopped,
    held: blocking ? tasks.filter((t) => t.status === 'pending').length : 0,
    breakers: { toolCalls: b.tool_calls, repeatFailures: b.repeat_failures, noProgress: b.no_progress, tokensPerMinute: b.tokens_per_minute, velocityWindowMs: b.velocity_window_ms },
  };
}

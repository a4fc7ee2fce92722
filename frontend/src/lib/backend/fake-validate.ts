import type { FieldError, Settings } from './types';

// Limits of backend/settings/validate.go.
const MAX_CONCURRENCY = 32;
const MAX_FIX_ROUNDS = 50;
const MAX_TRANSIENT = 20;
const MAX_DELAY_MS = 24 * 3600 * 1000;
const MIN_IDLE_TIMEOUT_MS = 100;
const MAX_GRACE_MS = 10 * 60 * 1000;
const MAX_INLINE_DIFF_BYTES = 64 << 20;
// Limits of backend/settings/budgets.go.
const MAX_BUDGET_USD = 1_000_000;
const MAX_BUDGET_TOKENS = 1_000_000_000_000;

/**
 * task.LineProblem: what makes a value unfit for one line of plain text (a
 * control character, a line or paragraph separator, a direction override),
 * '' when it fits.
 */
function lineProblem(v: string): string {
  for (const ch of v) {
    const c = ch.codePointAt(0) ?? 0;
    const control = c < 0x20 || (c >= 0x7f && c <= 0x9f);
    if (control || c === 0x2028 || c === 0x2029 || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) {
      return `contains the control character U+${c.toString(16).toUpperCase().padStart(4, '0')}; it must be one line of plain text`;
    }
  }
  return '';
}

/**
 * The validation the Go side does (settings.Validate, reported per field by
 * SettingsService.Save), mirrored for the fake backend: the same rules, the
 * same UI paths and the same messages, every invalid field at once
 * (fake-errors.test.ts checks it against settings-golden.json).
 */
export function validateSettings(s: Settings, tools: string[]): FieldError[] {
  const e: FieldError[] = [];
  const bad = (path: string, reason: string) => e.push({ path, message: `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.` });
  const between = (path: string, n: number, lo: number, hi: number) => {
    if (!Number.isInteger(n) || n < lo || n > hi) bad(path, `must be between ${lo} and ${hi} (got ${n})`);
  };
  const q = (v: string) => JSON.stringify(v);
  const w = s.working_directory.trim();
  if (lineProblem(s.working_directory)) bad('working_directory', lineProblem(s.working_directory));
  else if (w && !w.startsWith('/') && !w.startsWith('~/')) bad('working_directory', `must be an absolute path or start with ~/ (got ${q(w)})`);
  between('concurrency', s.concurrency, 1, MAX_CONCURRENCY);
  for (const role of ['planner', 'refinement', 'developer', 'observer', 'reviewer'] as const) {
    const c = s.roles[role];
    if (role === 'observer' && !c?.tool) continue; // no observer step
    const tool = c?.tool ?? '';
    if (!tools.includes(tool)) bad(`roles.${role}.tool`, `must be one of ${tools.join(', ')} (got ${q(tool)})`);
    if (lineProblem(c?.model ?? '')) bad(`roles.${role}.model`, lineProblem(c?.model ?? ''));
  }
  between('review.max_fix_rounds', s.review.max_fix_rounds, 0, MAX_FIX_ROUNDS);
  between('review.max_inline_diff_bytes', s.review.max_inline_diff_bytes, 1, MAX_INLINE_DIFF_BYTES);
  if (!['keep-branch', 'keep', 'delete'].includes(s.worktree.on_done)) bad('worktree.on_done', `must be keep-branch, keep or delete (got ${q(s.worktree.on_done)})`);
  if (!['keep', 'delete'].includes(s.worktree.on_failure)) bad('worktree.on_failure', `must be keep or delete (got ${q(s.worktree.on_failure)})`);
  if (s.worktree.root.includes('\0')) bad('worktree.root', 'must not contain NUL');
  between('retries.transient', s.retries.transient, 0, MAX_TRANSIENT);
  if (!s.retries.backoff_ms.length) bad('retries.backoff_ms', 'must list at least one delay');
  const i = s.retries.backoff_ms.findIndex((d) => !Number.isInteger(d) || d < 0 || d > MAX_DELAY_MS);
  if (i >= 0) bad('retries.backoff_ms', `must hold delays between 0 and ${MAX_DELAY_MS} (got ${s.retries.backoff_ms[i]} at position ${i + 1})`);
  between('retries.idle_timeout_ms', s.retries.idle_timeout_ms, MIN_IDLE_TIMEOUT_MS, MAX_DELAY_MS);
  between('stop.grace_ms', s.stop.grace_ms, 0, MAX_GRACE_MS);
  for (const scope of ['task', 'daily', 'monthly'] as const) {
    const l = s.budgets?.[scope];
    if (!l || (l.usd === null && l.tokens === null)) continue; // no budget
    const p = `budgets.${scope}`;
    if (l.usd !== null && (!Number.isFinite(l.usd) || l.usd <= 0 || l.usd > MAX_BUDGET_USD)) bad(`${p}.usd`, `must be an amount of US dollars above 0 and at most ${MAX_BUDGET_USD} (got ${l.usd})`);
    if (l.tokens !== null && (!Number.isInteger(l.tokens) || l.tokens <= 0 || l.tokens > MAX_BUDGET_TOKENS)) bad(`${p}.tokens`, `must be a number of tokens between 1 and ${MAX_BUDGET_TOKENS} (got ${l.tokens})`);
    if (l.mode !== 'warn' && l.mode !== 'cap') bad(`${p}.mode`, `must be warn or cap (got ${q(l.mode)})`);
  }
  const k = s.breakers;
  const breaker = (path: string, n: number, lo: number, hi: number) => {
    if (n !== 0 && (!Number.isInteger(n) || n < lo || n > hi)) bad(path, `must be between ${lo} and ${hi}, 0 turns it off (got ${n})`);
  };
  if (k) {
    breaker('breakers.tool_calls', k.tool_calls, 1, 100_000);
    breaker('breakers.repeat_failures', k.repeat_failures, 2, 1_000);
    breaker('breakers.no_progress', k.no_progress, 1, 10_000);
    breaker('breakers.tokens_per_minute', k.tokens_per_minute, 1, MAX_BUDGET_TOKENS);
    between('breakers.velocity_window_ms', k.velocity_window_ms, 1_000, 3_600_000);
  }
  return e;
}

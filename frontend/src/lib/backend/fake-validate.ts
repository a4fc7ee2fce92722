import type { FieldError, Settings } from './types';

/** The validation the Go side does, mirrored for the fake backend. */
export function validateSettings(s: Settings, tools: string[]): FieldError[] {
  const e: FieldError[] = [];
  const int = (path: string, v: number, min: number, max: number, what: string) => {
    if (!Number.isInteger(v) || v < min || v > max) e.push({ path, message: `${what} must be a whole number from ${min} to ${max}` });
  };
  if (!s.working_directory.trim()) e.push({ path: 'working_directory', message: 'choose a working directory' });
  else if (!s.working_directory.startsWith('/')) e.push({ path: 'working_directory', message: 'the working directory must be an absolute path' });
  // Go: settings.MaxConcurrency, message "N must be between 1 and 32".
  if (!Number.isInteger(s.concurrency) || s.concurrency < 1 || s.concurrency > 32) e.push({ path: 'concurrency', message: `${s.concurrency} must be between 1 and 32` });
  if (!tools.includes(s.default_tool)) e.push({ path: 'default_tool', message: `unknown tool '${s.default_tool}'` });
  for (const [role, c] of Object.entries(s.roles)) {
    if (c === null) {
      if (role !== 'observer') e.push({ path: `roles.${role}`, message: `${role} needs a tool` });
      continue;
    }
    if (!tools.includes(c.tool)) e.push({ path: `roles.${role}.tool`, message: `unknown tool '${c.tool}'` });
  }
  int('review.max_fix_rounds', s.review.max_fix_rounds, 0, 10, 'fix rounds');
  int('review.max_inline_diff_bytes', s.review.max_inline_diff_bytes, 1000, 10_000_000, 'inline diff limit');
  int('retries.transient', s.retries.transient, 0, 10, 'retries');
  if (!s.retries.backoff_ms.length) e.push({ path: 'retries.backoff_ms', message: 'give at least one delay' });
  else if (s.retries.backoff_ms.some((v) => !Number.isInteger(v) || v < 0)) e.push({ path: 'retries.backoff_ms', message: 'delays must be whole milliseconds, not negative' });
  int('retries.idle_timeout_ms', s.retries.idle_timeout_ms, 60_000, 86_400_000, 'idle timeout');
  int('stop.grace_ms', s.stop.grace_ms, 100, 600_000, 'stop grace period');
  return e;
}

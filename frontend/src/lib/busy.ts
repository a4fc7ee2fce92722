import { errorMessage } from './backend/backend';

/**
 * What `run` reports on: a store or component with the error line it shows and, when it
 * has one, a busy flag. Both are reactive `$state` fields, so the UI follows.
 */
export interface Busy {
  error: string;
}

/** The result of `run`: the value, or the error line it set ("" when refused or stale). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

export interface RunOptions<H> {
  /** Prefix of the error line: "Could not load tasks" → "Could not load tasks: <reason>". */
  fail?: string;
  /** The boolean field to set during the call (none by default: loads leave the busy flag alone). */
  flag?: keyof H;
  /** The string field that shows the error line; default `error`. */
  into?: keyof H;
  /**
   * A sequence guard: false once a newer call has started. Then the newest call wins: an
   * older one that settles late touches neither the error nor the flag and reports ok: false.
   * Without it the first call wins: `run` refuses while the flag is set.
   */
  current?: () => boolean;
}

/**
 * Runs `fn` for `holder`: sets its busy flag for the call, clears its error on success, sets
 * the one readable line (errorMessage, after `fail`) on failure, and returns the value or the
 * error. It never throws.
 */
export async function run<H extends Busy, T>(holder: H, fn: () => Promise<T>, opts: RunOptions<H> = {}): Promise<Outcome<T>> {
  const flag = opts.flag;
  const set = (on: boolean) => {
    if (flag !== undefined) (holder[flag] as boolean) = on;
  };
  const into = (opts.into ?? 'error') as keyof H;
  const current = opts.current ?? (() => true);
  if (!opts.current && flag !== undefined && holder[flag]) return { ok: false, error: '' };
  set(true);
  try {
    const value = await fn();
    if (!current()) return { ok: false, error: '' };
    (holder[into] as string) = '';
    return { ok: true, value };
  } catch (e) {
    if (!current()) return { ok: false, error: '' };
    const msg = errorMessage(e);
    const error = opts.fail ? `${opts.fail}: ${msg}` : msg;
    (holder[into] as string) = error;
    return { ok: false, error };
  } finally {
    if (current()) set(false);
  }
}

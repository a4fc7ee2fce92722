// One sentence per event, rendered from its kind and typed payload: the
// words the feed and the history show. Nothing here reads structure out of
// text; the text is made from the structure.
import type { TaskEventPayloads, TypedEvent, VerifyRun } from '../backend/types';
import { count, counts } from '../words/words';

const cap = (s: string): string => (s ? s[0].toUpperCase() + s.slice(1) : s);
const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(3))}s`;
const branch = (ref: string): string => ref.replace(/^refs\/heads\//, '');

/** Dollars as the budgets print them: "$5.00", "$0.0042" below a cent. */
export function usd(v: number): string {
  return v !== 0 && Math.abs(v) < 0.01 ? `$${v.toFixed(4)}` : `$${v.toFixed(2)}`;
}

/** A token count with thousands separators: "2,000,000". */
export function thousands(n: number): string {
  return Math.trunc(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A budget's name in sentences: "daily", "codex monthly". */
export function budgetLabel(d: { period: string; tool?: string }): string {
  return d.tool ? `${d.tool} ${d.period}` : d.period;
}

/** Spend against a budget's limits: "$0.80 of $1.00", "1,000 of 2,000 tokens". */
export function spendText(d: { limit_usd?: number; limit_tokens?: number; spent_usd: number; spent_tokens: number }): string {
  const parts: string[] = [];
  if (d.limit_usd) parts.push(`${usd(d.spent_usd)} of ${usd(d.limit_usd)}`);
  if (d.limit_tokens) parts.push(`${thousands(d.spent_tokens)} of ${thousands(d.limit_tokens)} tokens`);
  return parts.join(', ');
}

/** The step's name: "developer", "reviewer-2" (rebuilt from role and round for old history). */
export function stepName(d: { step?: string; role?: string; round?: number }): string {
  if (d.step) return d.step;
  return d.round ? `${d.role}-${d.round}` : (d.role ?? 'step');
}

function fallback(kind: string, data: unknown): string {
  const words = kind.replace(/_/g, ' ');
  if (data === null || data === undefined || (typeof data === 'object' && Object.keys(data).length === 0)) return words;
  return `${words} ${JSON.stringify(data)}`;
}

/** The one line of a verify run (Go: task.VerifyRun.Summary). */
export function verifySummary(v: VerifyRun): string {
  const dur = `${(v.duration_ms / 1000).toFixed(1)} s`;
  switch (v.outcome) {
    case 'passed':
      return `\`${v.command}\` passed (exit 0, ${dur})`;
    case 'skipped':
      return `\`${v.command}\` skipped: the work has no changes against its base`;
    case 'timed_out':
      return `\`${v.command}\` timed out after ${dur}`;
    case 'output_limit':
      return `\`${v.command}\` was stopped: ${v.error ?? 'too much output'}`;
    case 'stopped':
      return `\`${v.command}\` was stopped after ${dur}`;
    case 'not_started':
      return `\`${v.command}\` could not start: ${v.error ?? ''}`;
  }
  if (v.signal) return `\`${v.command}\` failed (killed by ${v.signal}, ${dur})`;
  return `\`${v.command}\` failed (exit ${v.exit_code}, ${dur})`;
}

function mergeQueueText(d: TaskEventPayloads['merge_queue']): string {
  const on = `the merge queue of ${d.target}`;
  switch (d.action) {
    case 'added':
      return `Added to ${on} (${d.strategy ?? 'merge'})`;
    case 'removed':
      return `Removed from ${on}`;
    case 'moved':
      return `Moved in ${on}${d.reason ? `: ${d.reason}` : ''}`;
    case 'started':
      return `Landing on ${d.target}: built on its tip and verified`;
    case 'retried':
      return `${d.target} moved meanwhile; landing again on its new tip`;
    case 'waiting':
      return `Waiting in ${on}: ${d.reason ?? ''}`;
    case 'blocked':
      return `Blocked in ${on}: ${d.reason ?? ''}${d.files?.length ? ` (${d.files.join(', ')})` : ''}`;
    case 'sent_back':
      return `Sent back to the developer from ${on}`;
    case 'requeued':
      return `Queued again in ${on}${d.reason ? `: ${d.reason}` : ''}`;
    case 'landed':
      return `Landed on ${d.target}${d.new ? ` (${d.new.slice(0, 10)})` : ''}`;
    case 'undone':
      return `Landing on ${d.target} undone`;
  }
  return `Merge queue: ${d.action}`;
}

/** Renders an event of any kind; a kind this version does not know shows its name and payload. */
export function describeEvent(e: { kind: string; data: unknown }): string {
  if (e.data === null || typeof e.data !== 'object') return fallback(e.kind, e.data);
  const ev = e as TypedEvent;
  switch (ev.kind) {
    case 'created':
      return ev.data.command ? `Task created with the text of command template “${ev.data.command}”` : 'Task created';
    case 'imported':
      return `Imported as ${ev.data.status}${ev.data.origin_id ? ` from task ${ev.data.origin_id}` : ''}`;
    case 'edited':
      return 'Task edited';
    case 'status_changed':
      return `Status ${ev.data.from} → ${ev.data.to}${ev.data.reason ? `: ${ev.data.reason}` : ''}`;
    case 'claimed':
      return 'Claimed by the runner';
    case 'skip_changed':
      return ev.data.skip ? 'Skipped in the queue' : 'No longer skipped';
    case 'priority_changed':
      return `Priority set to ${ev.data.priority}`;
    case 'reordered':
      return `Moved ${ev.data.after ? 'after' : 'before'} ${ev.data.anchor}`;
    case 'attachment_added':
      return `Attached ${ev.data.name} (${ev.data.size} bytes)`;
    case 'attachment_removed':
      return `Removed the attachment ${ev.data.name}`;
    case 'stop_requested':
      return 'Stop requested';
    case 'prompt_injected':
      return ev.data.text || 'Prompt injected';
    case 'question_asked':
      return ev.data.count ? `The planner asked ${count(ev.data.count, 'question')}` : 'The planner asked questions';
    case 'answered':
      return 'Questions answered';
    case 'recovered':
      if (ev.data.completed) return `After the app exited: finished the clean-up; the task is ${ev.data.completed}`;
      return `Stopped after the app exited: ${ev.data.reason}`;
    case 'exported':
      return ev.data.file ? `Exported to ${ev.data.file}` : 'Exported to markdown';
    case 'step_started':
      return `Step ${stepName(ev.data)} started (${ev.data.tool}${ev.data.model ? `, model ${ev.data.model}` : ''}, attempt ${ev.data.attempt}${ev.data.resumed_session ? `, resuming session ${ev.data.resumed_session}` : ''})`;
    case 'step_finished':
      return `Step ${stepName(ev.data)} finished: ${ev.data.outcome}`;
    case 'verdict':
      return `${cap(ev.data.role)} verdict (round ${ev.data.round}): ${ev.data.verdict}`;
    case 'retry_scheduled': {
      const d = ev.data;
      if (!d.reason) return `Retry of ${d.step} scheduled`;
      return `Transient failure in ${d.step} (attempt ${d.attempt}/${d.max_attempts}): ${d.reason}; retrying in ${seconds(d.delay_ms)} in the same worktree`;
    }
    case 'planner_asked':
      return `${cap(ev.data.role)} asked ${count(ev.data.questions.length, 'question')}; the planner answers them`;
    case 'planner_answered':
      return `Planner answered the ${ev.data.role}${ev.data.answer ? `: ${ev.data.answer}` : ''}`;
    case 'injection_applied':
      if (ev.data.delivery === 'live') return `Injected prompt delivered live to ${ev.data.step}; it is also included in every later step's prompt`;
      if (ev.data.error) return `Injected prompt stored (not delivered live: ${ev.data.error}); it is included in every later step's prompt`;
      return `Injected prompt applied to ${ev.data.step}'s prompt`;
    case 'stray_reverted': {
      const d = ev.data;
      const files = (d.files ?? []).map((f) => `"${f}"`).join(', ');
      const what = [files, d.head_moved ? 'HEAD' : ''].filter(Boolean).join(' and ');
      if (d.unreverted?.length) {
        return `${stepName(d)} is read-only but changed ${what}; saved on ${d.ref}, but ${d.unreverted.join(', ')} could not be put back${d.error ? ` (${d.error})` : ''}`;
      }
      return `${stepName(d)} is read-only but changed ${what}; saved on ${d.ref} (${d.sha.slice(0, 10)}) and reverted`;
    }
    case 'outcome_decided':
      return `Outcome decided: ${ev.data.status}${ev.data.cleanup ? `; worktree clean-up (${ev.data.cleanup}) follows` : ''}`;
    case 'verification':
      return `Verification${ev.data.where === 'queue' ? ' on the merge queue' : ev.data.where === 'manual' ? ' (on demand)' : ''}: ${verifySummary(ev.data)}`;
    case 'budget_warning':
      return ev.data.percent >= 100
        ? `Budget warning: the ${budgetLabel(ev.data)} budget is reached (${spendText(ev.data)}); it only warns, nothing is stopped`
        : `Budget warning: the ${budgetLabel(ev.data)} budget is at ${ev.data.percent} % (${spendText(ev.data)})`;
    case 'budget_stopped':
      return `${cap(ev.data.reason)}: stopping ${ev.data.step || 'the task'} (work kept)`;
    case 'circuit_broken':
      return `Circuit breaker: ${ev.data.reason.replace(/^circuit_broken:/, '')}; stopping ${ev.data.step} (work kept)`;
    case 'limit_reached': {
      const d = ev.data;
      const until = `${d.tool} paused until ${clock(d.resets_at)} (usage limit)`;
      if (d.action === 'switch') return `${d.tool} reached its usage limit; ${d.step} goes on with ${d.switch_to ?? 'another tool'}`;
      if (d.before) return `${until}: the task waits at the front of the queue and goes on from ${d.step}`;
      return `${until}: ${d.tool} reached its usage limit; the task waits at the front of the queue and goes on from ${d.step}`;
    }
    case 'session_rotated':
      return `${ev.data.tool} ran out of ${ev.data.reason} in ${ev.data.step}: a fresh session with the handoff (rotation ${ev.data.rotation} of ${ev.data.max_rotations})`;
    case 'scheduled':
      return `Queued by schedule ${ev.data.name || ev.data.schedule}${ev.data.caught_up ? ' (a fire missed while the app was closed)' : ''}`;
    case 'run_started': {
      const d = ev.data;
      const head = d.start === 'fix' ? `Fix run ${d.fix ?? 1} for your review started` : `Run ${d.run ?? d.iteration} of ${d.runs ?? 1} started`;
      const at = d.step === 'planner' ? '' : ` at the ${d.step}`;
      return `${head}${at}${d.start === 'resume' ? '; it continues the attempt that was cut short' : ''}`;
    }
    case 'hunk_dropped': {
      const d = ev.data;
      const what = `hunk ${d.index} of ${d.file} (${d.header})`;
      return d.commit ? `Dropped ${what}: commit ${d.commit.slice(0, 12)}` : `The ${what} was already dropped`;
    }
    case 'note':
    case 'text':
      return ev.data.text;
    case 'tool_call':
      return `${ev.data.tool} ${ev.data.input}`;
    case 'tool_result':
      return ev.data.output;
    case 'tool_retry':
      return `The tool is retrying after API error ${ev.data.error_status ?? 0} (attempt ${ev.data.attempt} of ${ev.data.max_attempts})`;
    case 'question':
      return `Question: ${ev.data.text}`;
    case 'usage':
      return `${ev.data.usage.tokens_in} tokens in, ${ev.data.usage.tokens_out} out`;
    case 'accepted':
      return `Accepted into ${branch(ev.data.target)} (${ev.data.strategy})`;
    case 'accept_undone':
      return `Accept into ${branch(ev.data.target)} undone`;
    case 'rejected':
      return ev.data.deleted.length ? `Rejected; deleted ${ev.data.deleted.map((b) => b.name).join(', ')}` : 'Rejected; branches kept';
    case 'changes_requested': {
      if (ev.data.source === 'conflicts') return `Sent back to the developer to resolve the accept's conflicts (fix run ${ev.data.fix ?? 1})`;
      const what = counts([ev.data.comments, 'comment'], [ev.data.drops, 'hunk to drop', 'hunks to drop']);
      return `Changes requested${what ? ` (${what})` : ''}${ev.data.fix ? `; fix run ${ev.data.fix} queued` : ''}`;
    }
    case 'accept_reconciled': {
      const what = ev.data.op === 'undo' ? 'undo of the accept' : 'accept';
      return `Interrupted ${what} into ${branch(ev.data.ref)} ${ev.data.completed ? 'completed' : 'rolled back'}: ${ev.data.detail}`;
    }
    case 'merge_queue':
      return mergeQueueText(ev.data);
    default: {
      const unhandled: never = ev; // every declared kind has its case above
      void unhandled;
    }
  }
  return fallback(e.kind, e.data);
}

/** clock renders an instant as the user's local HH:MM (with the date when it is not today). */
function clock(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  const now = new Date();
  if (d.toDateString() === now.toDateString()) return hm;
  return `${d.toLocaleString('en', { month: 'short' })} ${d.getDate()} ${hm}`;
}

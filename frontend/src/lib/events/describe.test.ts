import { describe, expect, it } from 'vitest';
import { describeEvent, stepName } from './describe';
import type { EventKind, TaskEventPayloads, TypedEvent } from '../backend/types';

const usage = { tokens_in: 10, tokens_out: 2, cache_read: 0, cache_write: 0, cost_usd: 0 };
const step = { execution: 4, step: 'reviewer-2', role: 'reviewer' as const, iteration: 1, round: 2, attempt: 1 };
const accepted = { strategy: 'squash' as const, target: 'refs/heads/main', old_sha: 'a', new_sha: 'b', task_head: 'c', at: '2026-11-30T00:41:00Z' };

/** One payload of every kind and the sentence it renders to. */
const cases: { [K in EventKind]: [TaskEventPayloads[K], string] } = {
  created: [{ status: 'pending', command: 'tests' }, 'Task created with the text of command template “tests”'],
  imported: [{ status: 'done', origin_id: '2025-10-03-retry' }, 'Imported as done from task 2025-10-03-retry'],
  edited: [{}, 'Task edited'],
  status_changed: [{ from: 'ongoing', to: 'done', reason: 'approved' }, 'Status ongoing → done: approved'],
  claimed: [{ runner: 'host:42' }, 'Claimed by the runner'],
  skip_changed: [{ skip: true }, 'Skipped in the queue'],
  priority_changed: [{ priority: 3 }, 'Priority set to 3'],
  reordered: [{ anchor: 'abc', after: true, priority: 0 }, 'Moved after abc'],
  attachment_added: [{ name: 'spec.pdf', size: 2048 }, 'Attached spec.pdf (2048 bytes)'],
  attachment_removed: [{ name: 'spec.pdf' }, 'Removed the attachment spec.pdf'],
  stop_requested: [{}, 'Stop requested'],
  prompt_injected: [{ injection: 3, bytes: 5, text: 'hurry' }, 'hurry'],
  question_asked: [{ count: 2 }, 'The planner asked 2 questions'],
  answered: [{ bytes: 12 }, 'Questions answered'],
  recovered: [{ reason: 'interrupted: the app exited while this step ran', at: '2026-11-30T00:41:00Z' }, 'Stopped after the app exited: interrupted: the app exited while this step ran'],
  exported: [{ via: 'ui' }, 'Exported to markdown'],
  step_started: [{ ...step, tool: 'mock', model: 'fast' }, 'Step reviewer-2 started (mock, model fast, attempt 1)'],
  step_finished: [{ ...step, outcome: 'succeeded', exit_code: 0, usage }, 'Step reviewer-2 finished: succeeded'],
  verdict: [{ role: 'reviewer', iteration: 1, round: 2, verdict: 'APPROVE' }, 'Reviewer verdict (round 2): APPROVE'],
  retry_scheduled: [
    { step: 'developer', role: 'developer', attempt: 1, max_attempts: 3, delay_ms: 30000, reason: 'API Error: 503' },
    'Transient failure in developer (attempt 1/3): API Error: 503; retrying in 30s in the same worktree',
  ],
  planner_asked: [{ role: 'developer', questions: ['Which file?', 'Keep it?'] }, 'Developer asked 2 questions; the planner answers them'],
  planner_answered: [{ role: 'developer', answer: 'README.md' }, 'Planner answered the developer: README.md'],
  injection_applied: [{ injection: 3, step: 'developer', delivery: 'live' }, "Injected prompt delivered live to developer; it is also included in every later step's prompt"],
  stray_reverted: [
    { ...step, files: ['README.md', 'fix.txt'], head_moved: true, ref: 'refs/boof-runner/t1/stray/7', sha: '0123456789abcdef' },
    'reviewer-2 is read-only but changed "README.md", "fix.txt" and HEAD; saved on refs/boof-runner/t1/stray/7 (0123456789) and reverted',
  ],
  note: [{ level: 'info', text: 'Run 1 of 1 started' }, 'Run 1 of 1 started'],
  text: [{ text: 'Reading the code.' }, 'Reading the code.'],
  tool_call: [{ tool: 'Bash', call_id: 'c1', input: 'go test ./...' }, 'Bash go test ./...'],
  tool_result: [{ call_id: 'c1', output: 'ok' }, 'ok'],
  tool_retry: [{ attempt: 2, max_attempts: 10, error_status: 529 }, 'The tool is retrying after API error 529 (attempt 2 of 10)'],
  question: [{ text: 'Which name?' }, 'Question: Which name?'],
  usage: [{ usage }, '10 tokens in, 2 out'],
  accepted: [accepted, 'Accepted into main (squash)'],
  accept_undone: [accepted, 'Accept into main undone'],
  rejected: [{ deleted: [{ name: 'boof-runner/t', sha: 'a', unique: 1 }], at: '2026-11-30T00:41:00Z' }, 'Rejected; deleted boof-runner/t'],
  changes_requested: [{ comments: 1, drops: 2, request: 4, fix: 1, source: 'review' }, 'Changes requested (1 comment and 2 hunks to drop); fix run 1 queued'],
  run_started: [{ iteration: 2, start: 'fix', step: 'developer', fix: 1 }, 'Fix run 1 for your review started at the developer'],
  hunk_dropped: [{ file: 'lib.txt', index: 2, header: '@@ -28,3 +28,3 @@', commit: '0123456789abcdef' }, 'Dropped hunk 2 of lib.txt (@@ -28,3 +28,3 @@): commit 0123456789ab'],
  outcome_decided: [{ status: 'done', cleanup: 'done' }, 'Outcome decided: done; worktree clean-up (done) follows'],
  budget_warning: [
    { scope: 'daily', period: 'daily', mode: 'cap', limit_usd: 1, spent_usd: 0.8, spent_tokens: 800000, percent: 80 },
    'Budget warning: the daily budget is at 80 % ($0.80 of $1.00)',
  ],
  budget_stopped: [
    { scope: 'tools.codex.task', period: 'task', tool: 'codex', mode: 'cap', limit_tokens: 2000000, spent_usd: 0, spent_tokens: 2000001, step: 'developer', reason: 'budget: codex task cap 2,000,000 tokens reached' },
    'Budget: codex task cap 2,000,000 tokens reached: stopping developer (work kept)',
  ],
  circuit_broken: [
    { breaker: 'repeat_failure', step: 'developer', limit: 3, count: 3, tool: 'bash', input: 'npm test', error: 'E', reason: 'circuit_broken:repeat_failure: bash "npm test" failed 3 times in a row with the same error' },
    'Circuit breaker: repeat_failure: bash "npm test" failed 3 times in a row with the same error; stopping developer (work kept)',
  ],
  limit_reached: [
    { step: 'developer', role: 'developer', tool: 'claude-code', resets_at: new Date(2030, 0, 1, 14, 5).toISOString(), action: 'wait' },
    'claude-code paused until Jan 1 14:05 (usage limit): claude-code reached its usage limit; the task waits at the front of the queue and goes on from developer',
  ],
  session_rotated: [
    { step: 'developer', tool: 'claude-code', reason: 'turns', rotation: 1, max_rotations: 3 },
    'claude-code ran out of turns in developer: a fresh session with the handoff (rotation 1 of 3)',
  ],
  scheduled: [{ schedule: 's1', name: 'nightly deps', due: '2026-12-02T02:00:00Z', caught_up: true }, 'Queued by schedule nightly deps (a fire missed while the app was closed)'],
  accept_reconciled: [
    { op: 'accept', ref: 'refs/heads/main', old: 'a1', new: 'b2', completed: true, detail: 'the checkout was brought along' },
    'Interrupted accept into main completed: the checkout was brought along',
  ],
  verification: [
    { execution: 9, step: 'verify-1', command: './check.sh', source: 'settings', where: 'task', outcome: 'failed', exit_code: 1, duration_ms: 1234, tail: 'FAIL' },
    'Verification: `./check.sh` failed (exit 1, 1.2 s)',
  ],
  merge_queue: [
    { action: 'blocked', entry: 3, target: 'main', reason: 'conflicts with main in 1 file(s)', files: ['README.md'] },
    'Blocked in the merge queue of main: conflicts with main in 1 file(s) (README.md)',
  ],
};

describe('describeEvent', () => {
  for (const [kind, [data, want]] of Object.entries(cases)) {
    it(`renders ${kind} from its payload`, () => {
      expect(describeEvent({ kind, data } as TypedEvent)).toBe(want);
    });
  }

  it('renders a resumed run and an older change request', () => {
    expect(describeEvent({ kind: 'run_started', data: { iteration: 1, start: 'resume', step: 'developer', run: 1, runs: 1, interrupted: true } })).toBe(
      'Run 1 of 1 started at the developer; it continues the attempt that was cut short',
    );
    expect(describeEvent({ kind: 'changes_requested', data: { comments: 0, drops: 1 } })).toBe('Changes requested (1 hunk to drop)');
  });
  it('renders the other forms of a kind', () => {
    expect(describeEvent({ kind: 'injection_applied', data: { injection: 3, step: 'reviewer-1', delivery: 'next_step' } })).toBe("Injected prompt applied to reviewer-1's prompt");
    expect(
      describeEvent({
        kind: 'stray_reverted',
        data: { ...step, files: ['locked.txt'], ref: 'refs/boof-runner/t1/stray/9', sha: 'abc', unreverted: ['locked.txt'], error: 'remove locked.txt: operation not permitted' },
      }),
    ).toBe('reviewer-2 is read-only but changed "locked.txt"; saved on refs/boof-runner/t1/stray/9, but locked.txt could not be put back (remove locked.txt: operation not permitted)');
    expect(describeEvent({ kind: 'injection_applied', data: { injection: 3, step: 'developer', delivery: 'next_step', error: 'run already finished' } })).toBe(
      "Injected prompt stored (not delivered live: run already finished); it is included in every later step's prompt",
    );
    expect(describeEvent({ kind: 'retry_scheduled', data: { step: 'developer', attempt: 1, delay_ms: 1500 } })).toBe('Retry of developer scheduled');
    expect(describeEvent({ kind: 'exported', data: { file: '/tmp/t.md', bytes: 10 } })).toBe('Exported to /tmp/t.md');
    expect(describeEvent({ kind: 'rejected', data: { deleted: [], at: '' } })).toBe('Rejected; branches kept');
    expect(describeEvent({ kind: 'prompt_injected', data: { injection: 3, bytes: 5 } })).toBe('Prompt injected');
  });

  it('names a step from its role and round in history written before steps had names', () => {
    const old = { execution: 7, role: 'developer' as const, iteration: 1, round: 1, attempt: 2 };
    expect(describeEvent({ kind: 'step_started', data: { ...old, tool: 'mock', model: '' } })).toBe('Step developer-1 started (mock, attempt 2)');
    expect(stepName({ role: 'planner', round: 0 })).toBe('planner');
  });

  it('shows a kind it does not know by its name and payload', () => {
    expect(describeEvent({ kind: 'from_the_future', data: { x: 1 } })).toBe('from the future {"x":1}');
    expect(describeEvent({ kind: 'from_the_future', data: null })).toBe('from the future');
  });
});

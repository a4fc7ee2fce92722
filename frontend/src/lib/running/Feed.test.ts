import { describe, expect, it } from 'vitest';
import { cleanup, render, screen, fireEvent } from '@testing-library/svelte';
import Feed from './Feed.svelte';
import type { FeedEntry } from './output.svelte';
import type { FeedItem } from '../backend/types';

let seq = 0;
const at = '2026-11-30T00:00:00Z';
function entry<E extends FeedEntry>(e: Omit<E, 'seq' | 'at'>): FeedEntry {
  return { seq: ++seq, at, ...e } as FeedEntry;
}
const step = { execution: 4, step: 'reviewer-1', role: 'reviewer' as const, iteration: 1, round: 1, attempt: 1 };
const result: FeedItem<'tool_result'> = { seq: 999, at, role: 'reviewer', kind: 'tool_result', data: { call_id: 'c1', output: ' M README', is_error: true } };

/** One entry of every kind the feed shows, and what the row says. */
const rows: [FeedEntry, string, string][] = [
  [entry({ role: '', kind: 'note', data: { level: 'info', text: 'Run 1 of 1 started' } }), 'step', '— Run 1 of 1 started —'],
  [entry({ role: 'reviewer', kind: 'step_started', data: { ...step, tool: 'mock', model: '' } }), 'step', '— Step reviewer-1 started (mock, attempt 1) —'],
  [entry({ role: 'reviewer', kind: 'text', data: { text: 'Checking the diff.' } }), 'text', 'Checking the diff.'],
  [{ ...entry({ role: 'reviewer', kind: 'tool_call', data: { tool: 'git', call_id: 'c1', input: 'git status --short' } }), result }, 'call', '▸ git git status --short'],
  [entry({ role: 'reviewer', kind: 'tool_call', data: { tool: 'Bash', call_id: 'c2', input: 'sleep 9' } }), 'call', '▸ Bash sleep 9 running…'],
  [entry({ role: 'reviewer', kind: 'tool_result', data: { output: 'orphan output' } }), 'text', 'orphan output'],
  [entry({ role: 'reviewer', kind: 'tool_retry', data: { attempt: 2, max_attempts: 10, error_status: 529 } }), 'retry', '↻ The tool is retrying after API error 529 (attempt 2 of 10)'],
  [entry({ role: 'reviewer', kind: 'question', data: { text: 'Which file?' } }), 'text', 'Question: Which file?'],
  [entry({ role: 'reviewer', kind: 'step_finished', data: { ...step, outcome: 'succeeded', exit_code: 0, usage: { tokens_in: 1, tokens_out: 1, cache_read: 0, cache_write: 0, cost_usd: 0 } } }), 'step', '— Step reviewer-1 finished: succeeded —'],
  [entry({ role: 'reviewer', kind: 'verdict', data: { role: 'reviewer', iteration: 1, round: 1, verdict: 'CHANGES_REQUESTED' } }), 'verdict', 'reviewer verdict: CHANGES_REQUESTED'],
  [
    entry({ role: 'developer', kind: 'retry_scheduled', data: { step: 'developer-1', role: 'developer', attempt: 1, max_attempts: 3, delay_ms: 1000, reason: 'exit code 1' } }),
    'retry',
    '↻ Transient failure in developer-1 (attempt 1/3): exit code 1; retrying in 1s in the same worktree',
  ],
  [entry({ role: 'developer', kind: 'planner_asked', data: { role: 'developer', questions: ['Which file?'] } }), 'step', '— Developer asked 1 question; the planner answers them —'],
  [entry({ role: 'planner', kind: 'planner_answered', data: { role: 'developer', answer: 'README.md' } }), 'step', '— Planner answered the developer: README.md —'],
  [entry({ role: 'developer', kind: 'prompt_injected', data: { injection: 3, bytes: 5, text: 'hurry' } }), 'inject', '✉ hurry'],
  [
    entry({ role: 'developer', kind: 'injection_applied', data: { injection: 3, step: 'developer-1', delivery: 'live' } }),
    'step',
    "— Injected prompt delivered live to developer-1; it is also included in every later step's prompt —",
  ],
  [entry({ role: '', kind: 'note', data: { level: 'error', text: 'Task failed: review not approved' } }), 'text', 'Task failed: review not approved'],
];

/** The rendered rows of a feed of these entries (few: the list follows its end). */
function rendered(entries: FeedEntry[]): Element[] {
  cleanup();
  render(Feed, { entries });
  return screen.getAllByRole('listitem').map((li) => li.querySelector('.entry')!);
}

describe('Feed', () => {
  it('renders each kind from its payload', () => {
    for (let from = 0; from < rows.length; from += 4) {
      const chunk = rows.slice(from, from + 4);
      const items = rendered(chunk.map((r) => r[0]));
      expect(items).toHaveLength(chunk.length);
      chunk.forEach(([e, look, text], i) => {
        const row = items[i];
        expect(row.classList.contains(e.kind), `${e.kind} row has its kind's class`).toBe(true);
        expect(row.textContent?.replace(/\s+/g, ' ').trim(), `${e.kind} row`).toBe(text.replace(/\s+/g, ' '));
        const inner = look === 'call' ? row.querySelector('button.call') : row.querySelector(`.${look === 'verdict' ? 'badge' : look}`);
        expect(inner, `${e.kind} row looks like ${look}`).not.toBeNull();
      });
    }
  });

  it('colours the verdict by the verdict and marks failed tool results', () => {
    const [callDone, callRunning, , , , , verdict] = rendered(rows.slice(3, 10).map((r) => r[0]));
    expect(verdict.querySelector('.badge')!.classList.contains('verdict-CHANGES_REQUESTED')).toBe(true);
    expect(callDone.classList.contains('err')).toBe(true); // its folded result failed
    expect(callRunning.classList.contains('err')).toBe(false);
  });

  it('opens a tool call to show its result', async () => {
    rendered(rows.slice(2, 6).map((r) => r[0]));
    const call = screen.getByRole('button', { name: /git status --short/ });
    expect(screen.queryByText('M README')).toBeNull();
    await fireEvent.click(call);
    expect(call.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('M README')).toBeTruthy();
  });
});

describe('Feed markdown', () => {
  it("renders an agent's message as markdown, its markup as text", () => {
    const [row] = rendered([entry({ role: 'reviewer', kind: 'text', data: { text: '## Review\n\n- **one** `x`\n\n<img src=x onerror="alert(1)">' } })]);
    expect(row.querySelector('h6, h5')?.textContent).toBe('Review');
    expect(row.querySelector('li strong')?.textContent).toBe('one');
    expect(row.querySelector('img')).toBeNull();
    expect(row.textContent).toContain('<img src=x onerror="alert(1)">');
  });
});

import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { StubBackend } from '../backend/stub';
import { budgetReport, demo } from '../backend/stub-data';
import { defaultSettings, settingsErrors } from '../backend/goldens';
import type { BudgetLine, Settings } from '../backend/types';
import { SettingsStore } from './settings.svelte';
import BudgetsPanel from './BudgetsPanel.svelte';

const now = () => new Date('2026-11-30T12:00:00Z');

/** A backend holding Go's default settings; Save answers with Go's field errors for the golden's bad budget form. */
function budgetsBackend() {
  const held = { settings: defaultSettings() };
  const b = new StubBackend({
    'SettingsService.Get': () => ({ saved: true, errors: [], settings: held.settings }),
    'SettingsService.Save': (s) => {
      const errors = s.budgets.daily?.usd === -5 ? settingsErrors((g) => g.budgets.daily?.usd === -5) : [];
      if (errors.length) return { saved: false, errors, settings: held.settings };
      held.settings = s;
      return { saved: true, errors: [], settings: s };
    },
    'SettingsService.Budget': () => budgetReport(),
  });
  return { b, held };
}

const line = (over: Partial<BudgetLine>): BudgetLine => ({ scope: 'daily', period: 'daily', mode: 'warn', spent_usd: 0, spent_tokens: 0, percent: 0, reached: false, blocking: false, ...over });

describe('budgets on the Settings screen', () => {
  it('edits budgets with per-field errors, saves a cap and reports spend against it', async () => {
    const { b, held } = budgetsBackend();
    const s = new SettingsStore(b, now);
    await s.load();
    expect(s.draft!.budgets.daily).toEqual({ usd: null, tokens: null, mode: 'warn' });
    expect(s.dirty).toBe(false);
    s.draft!.budgets.daily!.usd = -5;
    s.draft!.breakers.repeat_failures = 1;
    expect(await s.save()).toBe(false);
    const want = settingsErrors((g) => g.budgets.daily?.usd === -5);
    expect(want.map((e) => e.path)).toEqual(['budgets.daily.usd', 'breakers.repeat_failures']);
    expect(s.errorFor('budgets.daily.usd')).toBe(want[0].message);
    expect(s.errorFor('breakers.repeat_failures')).toBe(want[1].message);
    expect(held.settings.budgets.daily).toBeNull();
    s.draft!.budgets.daily = { usd: 1, tokens: null, mode: 'cap' };
    s.draft!.breakers.repeat_failures = 3;
    expect(await s.save()).toBe(true);
    expect(b.argsOf('SettingsService.Save').at(-1)![0]).toMatchObject({ budgets: { daily: { usd: 1, tokens: null, mode: 'cap' } }, breakers: { repeat_failures: 3 } });
    expect((held.settings as Settings).budgets.daily).toEqual({ usd: 1, tokens: null, mode: 'cap' });
    b.on('SettingsService.Budget', () => budgetReport({ lines: [line({ mode: 'cap', limit_usd: 1, spent_usd: 1.2, percent: 120, reached: true, blocking: true })], breakers: { ...budgetReport().breakers, repeatFailures: 3 } }));
    await s.loadBudget();
    const daily = s.budget!.lines.find((l) => l.scope === 'daily')!;
    expect(daily.blocking).toBe(true);
    expect(daily.limit_usd).toBe(1);
    expect(s.budget!.breakers.repeatFailures).toBe(3);
  });

  it('retries the tasks a budget stopped once no cap holds them', async () => {
    const { b } = budgetsBackend();
    const t = demo('Try a new icon');
    const reason = 'budget: daily cap $1.00 reached';
    const stopped = { id: t.id, title: t.title, reason };
    b.on('SettingsService.Budget', () => budgetReport({ stopped: [{ ...stopped, held_by: reason }] })).on('SettingsService.RetryBudgetStopped', () => ({ retried: [], held: [{ ...stopped, held_by: reason }] }));
    const s = new SettingsStore(b, now);
    await s.load();
    s.draft!.budgets.daily = { usd: 1, tokens: null, mode: 'cap' };
    expect(await s.save()).toBe(true);
    await s.loadBudget();
    expect(s.budget!.stopped).toEqual([{ id: t.id, title: t.title, reason, held_by: reason }]);
    await s.retryBudget();
    expect(s.budgetNotice).toBe('0 tasks re-queued; 1 still held by a cap.');
    // The cap raised, nothing holds the task: the retry re-queues it.
    b.on('SettingsService.Budget', () => budgetReport()).on('SettingsService.RetryBudgetStopped', () => ({ retried: [stopped], held: [] }));
    s.draft!.budgets.daily!.usd = 100000;
    expect(await s.save()).toBe(true);
    await s.retryBudget();
    expect(s.budgetNotice).toBe('1 task re-queued.');
    expect(b.count('SettingsService.RetryBudgetStopped')).toBe(2);
  });

  it('renders a progress bar per budget with its spend', async () => {
    const { b } = budgetsBackend();
    const s = new SettingsStore(b, now);
    await s.load();
    s.draft!.budgets.monthly = { usd: null, tokens: 100_000_000, mode: 'warn' };
    b.on('SettingsService.Budget', () => budgetReport({ lines: [line({ scope: 'monthly', period: 'monthly', limit_tokens: 100_000_000, spent_tokens: 37_500_000, percent: 37.5 })] }));
    expect(await s.save()).toBe(true);
    render(BudgetsPanel, { store: s });
    const bar = await screen.findByRole('progressbar', { name: 'monthly budget' });
    const want = Math.round(s.budget!.lines[0].percent);
    expect(Number(bar.getAttribute('aria-valuenow'))).toBe(Math.min(100, want));
    expect(screen.getByLabelText('Per month tokens')).toHaveProperty('value', '100000000');
    expect(screen.getByText(/tokens · \d+ %/)).toBeTruthy();
  });
});

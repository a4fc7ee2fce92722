import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { FakeBackend } from '../backend/fake';
import { SettingsStore } from './settings.svelte';
import BudgetsPanel from './BudgetsPanel.svelte';

const now = () => new Date('2026-11-30T12:00:00Z');

describe('budgets on the Settings screen', () => {
  it('edits budgets with per-field errors, saves a cap and reports spend against it', async () => {
    const b = new FakeBackend({ now });
    const s = new SettingsStore(b, now);
    await s.load();
    expect(s.draft!.budgets.daily).toEqual({ usd: null, tokens: null, mode: 'warn' });
    expect(s.dirty).toBe(false);
    s.draft!.budgets.daily!.usd = -5;
    s.draft!.breakers.repeat_failures = 1;
    expect(await s.save()).toBe(false);
    expect(s.errorFor('budgets.daily.usd')).toBe('Must be an amount of US dollars above 0 and at most 1000000 (got -5).');
    expect(s.errorFor('breakers.repeat_failures')).toBe('Must be between 2 and 1000, 0 turns it off (got 1).');
    expect(b.settings.budgets.daily).toBeNull();
    s.draft!.budgets.daily = { usd: 1, tokens: null, mode: 'cap' };
    s.draft!.breakers.repeat_failures = 3;
    expect(await s.save()).toBe(true);
    expect(b.settings.budgets.daily).toEqual({ usd: 1, tokens: null, mode: 'cap' });
    await s.loadBudget();
    const daily = s.budget!.lines.find((l) => l.scope === 'daily')!;
    expect(daily.blocking).toBe(true);
    expect(daily.limit_usd).toBe(1);
    expect(s.budget!.breakers.repeatFailures).toBe(3);
  });

  it('retries the tasks a budget stopped once no cap holds them', async () => {
    const b = new FakeBackend({ now });
    const s = new SettingsStore(b, now);
    await s.load();
    const t = [...b.tasks.values()].find((x) => x.status === 'failed' || x.status === 'stopped' || x.status === 'done')!;
    t.status = 'stopped';
    t.error = 'budget: daily cap $1.00 reached';
    s.draft!.budgets.daily = { usd: 1, tokens: null, mode: 'cap' };
    expect(await s.save()).toBe(true);
    await s.loadBudget();
    expect(s.budget!.stopped).toEqual([{ id: t.id, title: t.title, reason: t.error, held_by: 'budget: daily cap $1.00 reached' }]);
    await s.retryBudget();
    expect(s.budgetNotice).toBe('0 tasks re-queued; 1 still held by a cap.');
    expect(t.status).toBe('stopped');
    s.draft!.budgets.daily!.usd = 100000;
    expect(await s.save()).toBe(true);
    await s.retryBudget();
    expect(s.budgetNotice).toBe('1 task re-queued.');
    expect(b.tasks.get(t.id)!.status).toBe('pending');
  });

  it('renders a progress bar per budget with its spend', async () => {
    const b = new FakeBackend({ now });
    const s = new SettingsStore(b, now);
    await s.load();
    s.draft!.budgets.monthly = { usd: null, tokens: 100_000_000, mode: 'warn' };
    expect(await s.save()).toBe(true);
    render(BudgetsPanel, { store: s });
    const bar = await screen.findByRole('progressbar', { name: 'monthly budget' });
    const want = Math.round(s.budget!.lines[0].percent);
    expect(Number(bar.getAttribute('aria-valuenow'))).toBe(Math.min(100, want));
    expect(screen.getByLabelText('Per month tokens')).toHaveProperty('value', '100000000');
    expect(screen.getByText(/tokens · \d+ %/)).toBeTruthy();
  });
});

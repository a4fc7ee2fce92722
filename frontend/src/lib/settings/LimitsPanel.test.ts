import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import LimitsPanel from './LimitsPanel.svelte';
import { SettingsStore } from './settings.svelte';
import { FakeBackend } from '../backend/fake';

const order = () => within(screen.getByRole('list', { name: 'Switch order' })).getAllByRole('listitem').map((li) => li.querySelector('.tool')?.textContent ?? li.textContent);

describe('LimitsPanel', () => {
  it('edits limits.onLimit and the switch order: move, take out, add, save', async () => {
    const b = new FakeBackend();
    const s = new SettingsStore(b, () => new Date('2026-11-30T12:00:00Z'));
    await s.load();
    await s.loadHealth();
    render(LimitsPanel, { store: s });
    expect(order()).toEqual(['claude-code', 'codex', 'gemini']);
    expect((screen.getByRole('button', { name: 'Move claude-code up' }) as HTMLButtonElement).disabled).toBe(true);

    await fireEvent.click(screen.getByRole('button', { name: 'Move gemini up' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Take codex out of the switch order' }));
    flushSync();
    expect(order()).toEqual(['claude-code', 'gemini']);
    const add = screen.getByRole('combobox', { name: 'Add to the switch order' }) as HTMLSelectElement;
    expect([...add.options].map((o) => o.value)).toEqual(['', 'codex', 'mock']);
    await fireEvent.change(add, { target: { value: 'mock' } });
    await fireEvent.change(screen.getByRole('combobox', { name: 'On a usage limit' }), { target: { value: 'switch' } });
    flushSync();
    expect(order()).toEqual(['claude-code', 'gemini', 'mock']);
    expect(s.dirty).toBe(true);
    expect(await s.save()).toBe(true);
    expect(b.settings.limits).toEqual({ on_limit: 'switch', switch_order: ['claude-code', 'gemini', 'mock'] });

    for (const t of ['claude-code', 'gemini', 'mock']) await fireEvent.click(screen.getByRole('button', { name: `Take ${t} out of the switch order` }));
    flushSync();
    expect(screen.getByText('no tool: every task waits for the reset')).toBeTruthy();
  });

  it('shows the field error of a refused order and stores nothing', async () => {
    const b = new FakeBackend();
    const s = new SettingsStore(b, () => new Date('2026-11-30T12:00:00Z'));
    await s.load();
    render(LimitsPanel, { store: s });
    s.draft!.limits!.switch_order = ['codex', 'codex'];
    expect(await s.save()).toBe(false);
    flushSync();
    const alert = screen.getByRole('alert');
    expect(alert.dataset.path).toBe('limits.switch_order');
    expect(alert.textContent).toBe('Must name each tool once (got "codex" twice).');
    expect(b.settings.limits!.switch_order).toEqual(['claude-code', 'codex', 'gemini']);
  });
});

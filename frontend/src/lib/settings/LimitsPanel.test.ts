import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import LimitsPanel from './LimitsPanel.svelte';
import { SettingsStore } from './settings.svelte';
import { StubBackend } from '../backend/stub';
import { toolHealth } from '../backend/stub-data';
import { defaultSettings, settingsErrors } from '../backend/goldens';
import type { Settings } from '../backend/types';

const order = () => within(screen.getByRole('list', { name: 'Switch order' })).getAllByRole('listitem').map((li) => li.querySelector('.tool')?.textContent ?? li.textContent);

/** The health of the tools Go registers: the stub's three and gemini, not installed. */
const health = () => {
  const h = toolHealth();
  h.splice(2, 0, { tool: 'gemini', installed: false, version: '', authenticated: false, checked_at: h[0].checked_at, error: 'not installed' });
  return h;
};

/** A backend holding Go's default settings; Save answers with the field errors Go gives a duplicate in the order (the settings golden). */
function limitsBackend() {
  let stored = defaultSettings();
  const b = new StubBackend({
    'SettingsService.Get': () => ({ saved: true, errors: [], settings: stored }),
    'SettingsService.Save': (s: Settings) => {
      const dup = new Set(s.limits?.switch_order).size !== (s.limits?.switch_order.length ?? 0);
      const errors = dup ? settingsErrors((g) => g.limits?.switch_order.join() === 'gemini,mock,gemini') : [];
      if (errors.length) return { saved: false, errors, settings: stored };
      stored = s;
      return { saved: true, errors: [], settings: stored };
    },
    'SettingsService.ToolHealth': () => health(),
  });
  return { b, stored: () => stored };
}

describe('LimitsPanel', () => {
  it('edits limits.onLimit and the switch order: move, take out, add, save', async () => {
    const { b, stored } = limitsBackend();
    const s = new SettingsStore(b, () => new Date('2026-11-30T12:00:00Z'));
    await s.load();
    await s.loadHealth();
    render(LimitsPanel, { store: s });
    expect(order()).toEqual(['claude-code', 'codex', 'gemini', 'opencode', 'qwen-code']);
    expect((screen.getByRole('button', { name: 'Move claude-code up' }) as HTMLButtonElement).disabled).toBe(true);

    await fireEvent.click(screen.getByRole('button', { name: 'Move gemini up' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Take codex out of the switch order' }));
    flushSync();
    expect(order()).toEqual(['claude-code', 'gemini', 'opencode', 'qwen-code']);
    const add = screen.getByRole('combobox', { name: 'Add to the switch order' }) as HTMLSelectElement;
    expect([...add.options].map((o) => o.value)).toEqual(['', 'codex', 'mock']);
    await fireEvent.change(add, { target: { value: 'mock' } });
    await fireEvent.change(screen.getByRole('combobox', { name: 'On a usage limit' }), { target: { value: 'switch' } });
    flushSync();
    expect(order()).toEqual(['claude-code', 'gemini', 'opencode', 'qwen-code', 'mock']);
    expect(s.dirty).toBe(true);
    expect(await s.save()).toBe(true);
    expect(stored().limits).toEqual({ on_limit: 'switch', switch_order: ['claude-code', 'gemini', 'opencode', 'qwen-code', 'mock'] });

    for (const t of ['claude-code', 'gemini', 'opencode', 'qwen-code', 'mock']) await fireEvent.click(screen.getByRole('button', { name: `Take ${t} out of the switch order` }));
    flushSync();
    expect(screen.getByText('no tool: every task waits for the reset')).toBeTruthy();
  });

  it("shows Go's field error of a refused order and stores nothing", async () => {
    const { b, stored } = limitsBackend();
    const s = new SettingsStore(b, () => new Date('2026-11-30T12:00:00Z'));
    await s.load();
    render(LimitsPanel, { store: s });
    s.draft!.limits!.switch_order = ['gemini', 'mock', 'gemini'];
    expect(await s.save()).toBe(false);
    flushSync();
    const alert = screen.getByRole('alert');
    expect(alert.dataset.path).toBe('limits.switch_order');
    expect(alert.textContent).toBe('Must name each tool once (got "gemini" twice).');
    expect(stored().limits!.switch_order).toEqual(['claude-code', 'codex', 'gemini', 'opencode', 'qwen-code']);
  });
});

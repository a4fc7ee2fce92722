import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import RolesEditor from './RolesEditor.svelte';
import { SettingsStore } from './settings.svelte';
import { StubBackend } from '../backend/stub';
import { budgetReport } from '../backend/stub-data';
import { defaultSettings } from '../backend/goldens';

describe('RolesEditor write access', () => {
  it('shows every role but the developer read-only by default and saves a toggle as roles.<role>.write', async () => {
    // Go's defaults, with an observer step.
    const settings = defaultSettings();
    settings.roles.observer = { tool: 'codex', model: 'gpt-5', write: false };
    const b = new StubBackend({
      'SettingsService.Get': () => ({ saved: true, errors: [], settings }),
      'SettingsService.Save': (s) => ({ saved: true, errors: [], settings: s }),
      'SettingsService.Budget': () => budgetReport(),
    });
    const s = new SettingsStore(b, () => new Date('2026-11-30T12:00:00Z'));
    await s.load();
    render(RolesEditor, { store: s });
    for (const r of ['planner', 'refinement', 'observer', 'reviewer']) {
      expect((screen.getByRole('checkbox', { name: `${r} may change files` }) as HTMLInputElement).checked).toBe(false);
    }
    expect(screen.queryByRole('checkbox', { name: 'developer may change files' })).toBeNull();
    expect(screen.getByText('edits the code')).toBeTruthy();

    await fireEvent.click(screen.getByRole('checkbox', { name: 'reviewer may change files' }));
    flushSync();
    expect(s.draft!.roles.reviewer.write).toBe(true);
    expect(s.dirty).toBe(true);
    expect(await s.save()).toBe(true);
    const saved = b.argsOf('SettingsService.Save')[0][0];
    expect(saved.roles.reviewer.write).toBe(true);
    expect(saved.roles.planner.write).toBe(false);
  });
});

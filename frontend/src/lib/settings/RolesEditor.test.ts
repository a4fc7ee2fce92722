import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import RolesEditor from './RolesEditor.svelte';
import { SettingsStore } from './settings.svelte';
import { FakeBackend } from '../backend/fake';

describe('RolesEditor write access', () => {
  it('shows every role but the developer read-only by default and saves a toggle as roles.<role>.write', async () => {
    const b = new FakeBackend();
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
    expect(b.settings.roles.reviewer.write).toBe(true);
    expect(b.settings.roles.planner.write).toBe(false);
  });
});

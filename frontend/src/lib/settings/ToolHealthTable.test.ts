import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import ToolHealthTable from './ToolHealthTable.svelte';
import { SettingsStore } from './settings.svelte';
import { StubBackend } from '../backend/stub';

describe('ToolHealthTable', () => {
  it('says when a passing check ran (it may be shown again later), not for a failing one', () => {
    const s = new SettingsStore(new StubBackend());
    const at = new Date(Date.now() - 3 * 60_000).toISOString();
    s.health = [
      { tool: 'mock', installed: true, version: '1', authenticated: true, checked_at: at },
      { tool: 'codex', installed: true, version: '0.171.0', authenticated: false, error: 'not logged in', checked_at: at },
    ];
    render(ToolHealthTable, { store: s });
    const table = screen.getByRole('table', { name: 'Tool health' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1].textContent).toContain('checked 3 min ago');
    expect(rows[2].textContent).toContain('not logged in');
    expect(rows[2].textContent).not.toContain('checked');
  });
});

import { describe, expect, it } from 'vitest';
import golden from './usererr-golden.json';
import settingsGolden from './settings-golden.json';
import type { Settings, Status } from './types';
import { conflictMessage, dirtyMessage, duplicateMessage, movedMessage, notFound, statusMessage, transitionMessage, unknownBaseMessage } from './fake-errors';
import { validateSettings } from './fake-validate';
import { MODELS } from './fake-data';

// The golden files are written by the Go tests (backend/usererr and app,
// with -update) from the real messages; the fake backend must say the same.
describe('the fake backend speaks the Go error vocabulary', () => {
  it('says why a status change is refused, for every illegal change', () => {
    expect(golden.transitions.length).toBeGreaterThan(50);
    for (const g of golden.transitions) expect(transitionMessage(g.from as Status, g.to as Status)).toBe(g.message);
  });

  it('says why an operation is refused in a status', () => {
    for (const g of golden.statuses) expect(statusMessage(g.op, g.status as Status, g.allowed as Status[])).toBe(g.message);
  });

  it('names what does not exist', () => {
    for (const g of golden.not_found) expect(notFound(g.what as 'task', g.id)).toBe(g.message);
  });

  it('explains refused accepts and unknown base refs', () => {
    for (const g of golden.conflicts) expect(conflictMessage(g.files)).toBe(g.message);
    for (const g of golden.dirty) expect(dirtyMessage(g.dir!, g.files)).toBe(g.message);
    for (const g of golden.moved) expect(movedMessage(g.branch, g.expected, g.actual)).toBe(g.message);
    for (const g of golden.unknown_base) expect(unknownBaseMessage(g.base, g.dir)).toBe(g.message);
  });

  it('refuses a task file imported before', () => {
    expect(golden.duplicates.length).toBe(2);
    for (const g of golden.duplicates) expect(duplicateMessage(g.origin, g.task_id)).toBe(g.message);
  });

  it('validates settings like SettingsService.Save: every invalid field, same paths and messages', () => {
    expect(settingsGolden.length).toBeGreaterThan(2);
    for (const g of settingsGolden) expect(validateSettings(g.settings as Settings, Object.keys(MODELS))).toEqual(g.errors);
  });
});

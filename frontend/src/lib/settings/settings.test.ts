import { describe, expect, it } from 'vitest';
import { StubBackend } from '../backend/stub';
import { MODELS, budgetReport, toolHealth, usageOf } from '../backend/stub-data';
import { callError, defaultSettings, settingsErrors } from '../backend/goldens';
import { SettingsStore, parseList } from './settings.svelte';

const now = () => new Date('2026-11-30T12:00:00Z');

/**
 * A backend holding Go's default settings: Save answers with the field
 * errors Go gives for the form (from the settings golden) or stores it.
 */
function settingsBackend() {
  let stored = defaultSettings();
  const b = new StubBackend({
    'SettingsService.Get': () => ({ saved: true, errors: [], settings: stored }),
    'SettingsService.Save': (s) => {
      const errors = s.concurrency === 99 ? settingsErrors((g) => g.concurrency === 99) : [];
      if (errors.length) return { saved: false, errors, settings: stored };
      stored = s;
      return { saved: true, errors: [], settings: stored };
    },
    'SettingsService.ToolHealth': () => toolHealth(),
    'SettingsService.Models': (tool) => MODELS[tool],
  });
  return { b, stored: () => stored };
}

describe('SettingsStore', () => {
  it('keeps an invalid draft dirty, shows errors per field and stores nothing', async () => {
    const { b, stored } = settingsBackend();
    const s = new SettingsStore(b, now);
    await s.load();
    expect(s.dirty).toBe(false);
    s.draft!.concurrency = 99;
    s.draft!.retries.idle_timeout_ms = 5;
    expect(s.dirty).toBe(true);
    expect(await s.save()).toBe(false);
    const want = settingsErrors((g) => g.concurrency === 99);
    expect(want.map((e) => e.path)).toEqual(['concurrency', 'retries.idle_timeout_ms']);
    expect(s.errorFor('concurrency')).toBe(want[0].message);
    expect(s.errorFor('retries.idle_timeout_ms')).toBe(want[1].message);
    expect(s.errors).toHaveLength(2);
    expect(s.errorFor('review')).toBe('');
    expect(s.dirty).toBe(true);
    expect(b.argsOf('SettingsService.Save')[0][0]).toMatchObject({ concurrency: 99, retries: { idle_timeout_ms: 5 } });
    expect(stored().concurrency).toBe(1);
  });

  it('refuses a malformed backoff list without calling the backend', async () => {
    const { b } = settingsBackend();
    const s = new SettingsStore(b, now);
    await s.load();
    s.backoff = '1000, soon';
    const n = b.calls.length;
    expect(await s.save()).toBe(false);
    expect(s.errorFor('retries.backoff_ms')).toMatch(/whole milliseconds/);
    expect(b.calls.length).toBe(n);
  });

  it('saves a valid draft, with observer (none)', async () => {
    const { b, stored } = settingsBackend();
    b.on('SettingsService.Budget', () => budgetReport());
    const s = new SettingsStore(b, now);
    await s.load();
    await s.loadHealth();
    s.setObserver('');
    s.backoff = '10, 20';
    expect(await s.save()).toBe(true);
    expect(b.argsOf('SettingsService.Save')[0][0]).toMatchObject({ roles: { observer: null }, retries: { backoff_ms: [10, 20] } });
    expect(stored().roles.observer).toBeNull();
    expect(stored().retries.backoff_ms).toEqual([10, 20]);
    expect(s.dirty).toBe(false);
    s.setObserver('codex');
    expect(s.draft!.roles.observer).toEqual({ tool: 'codex', model: 'gpt-5', write: false });
  });

  it('tests a tool and records a failing test as an error on that tool', async () => {
    const { b } = settingsBackend();
    b.on('SettingsService.TestTool', (tool) => ({ ...toolHealth().find((h) => h.tool === tool)!, authenticated: true, error: undefined }));
    const s = new SettingsStore(b, now);
    await s.loadHealth();
    expect(s.health.find((h) => h.tool === 'codex')!.authenticated).toBe(false);
    await s.test('codex');
    expect(s.health.find((h) => h.tool === 'codex')!.authenticated).toBe(true);
    b.failNext('SettingsService.TestTool', 'claude: exit status 1: not logged in');
    await s.test('claude-code');
    const c = s.health.find((h) => h.tool === 'claude-code')!;
    expect(c.authenticated).toBe(false);
    expect(c.error).toBe('Claude: exit status 1: not logged in');
  });

  it('loads usage for the last 14 days and reports a bad range', async () => {
    const reversed = callError('usage: range reversed');
    const b = new StubBackend({
      'SettingsService.Usage': (r) => {
        if (r.from > r.to) throw new Error(reversed);
        return usageOf(r);
      },
    });
    const s = new SettingsStore(b, now);
    expect(s.range).toEqual({ from: '2026-11-17', to: '2026-11-30' });
    await s.loadUsage();
    expect(b.argsOf('SettingsService.Usage')[0]).toEqual([{ from: '2026-11-17', to: '2026-11-30' }]);
    expect(s.usage!.by_day).toHaveLength(14);
    s.range.from = '2026-12-31';
    await s.loadUsage();
    expect(s.usageError).toBe(reversed);
  });

  it('parseList', () => {
    expect(parseList('1, 2,3')).toEqual([1, 2, 3]);
    expect(parseList('')).toEqual([]);
    expect(parseList('1, -2')).toBeNull();
  });
});

describe('SettingsStore load error', () => {
  it('shows why settings.json could not be read', async () => {
    const { b } = settingsBackend();
    b.on('SettingsService.Get', () => ({ saved: true, errors: [], settings: defaultSettings(), load_error: 'settings.json: invalid character at line 3 — using defaults until you save' }));
    b.on('SettingsService.Budget', () => budgetReport());
    const s = new SettingsStore(b, now);
    await s.load();
    expect(s.loadError).toMatch(/using defaults until you save/);
    expect(s.draft!.concurrency).toBe(1);
    expect(await s.save()).toBe(true);
    expect(s.loadError).toBe('');
  });
});


import { describe, expect, it } from 'vitest';
import { FakeBackend } from '../backend/fake';
import { SettingsStore, parseList } from './settings.svelte';

const now = () => new Date('2026-11-30T12:00:00Z');

describe('SettingsStore', () => {
  it('keeps an invalid draft dirty, shows errors per field and stores nothing', async () => {
    const b = new FakeBackend();
    const s = new SettingsStore(b, now);
    await s.load();
    expect(s.dirty).toBe(false);
    s.draft!.concurrency = 99;
    s.draft!.retries.idle_timeout_ms = 5;
    expect(s.dirty).toBe(true);
    expect(await s.save()).toBe(false);
    expect(s.errorFor('concurrency')).toBe('Must be between 1 and 32 (got 99).');
    expect(s.errorFor('retries.idle_timeout_ms')).toBe('Must be between 100 and 86400000 (got 5).');
    expect(s.errors).toHaveLength(2);
    expect(s.errorFor('review')).toBe('');
    expect(s.dirty).toBe(true);
    expect(b.settings.concurrency).toBe(1);
  });

  it('refuses a malformed backoff list without calling the backend', async () => {
    const b = new FakeBackend();
    const s = new SettingsStore(b, now);
    await s.load();
    s.backoff = '1000, soon';
    const n = b.calls.length;
    expect(await s.save()).toBe(false);
    expect(s.errorFor('retries.backoff_ms')).toMatch(/whole milliseconds/);
    expect(b.calls.length).toBe(n);
  });

  it('saves a valid draft, with observer (none)', async () => {
    const b = new FakeBackend();
    const s = new SettingsStore(b, now);
    await s.load();
    await s.loadHealth();
    s.setObserver('');
    s.backoff = '10, 20';
    expect(await s.save()).toBe(true);
    expect(b.settings.roles.observer).toBeNull();
    expect(b.settings.retries.backoff_ms).toEqual([10, 20]);
    expect(s.dirty).toBe(false);
    s.setObserver('codex');
    expect(s.draft!.roles.observer).toEqual({ tool: 'codex', model: 'gpt-5', write: false });
  });

  it('tests a tool and records a failing test as an error on that tool', async () => {
    const b = new FakeBackend();
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
    const b = new FakeBackend();
    const s = new SettingsStore(b, now);
    expect(s.range).toEqual({ from: '2026-11-17', to: '2026-11-30' });
    await s.loadUsage();
    expect(s.usage!.by_day).toHaveLength(14);
    s.range.from = '2026-12-31';
    await s.loadUsage();
    expect(s.usageError).toMatch(/from before to/);
  });

  it('parseList', () => {
    expect(parseList('1, 2,3')).toEqual([1, 2, 3]);
    expect(parseList('')).toEqual([]);
    expect(parseList('1, -2')).toBeNull();
  });
});

describe('SettingsStore load error', () => {
  it('shows why settings.json could not be read', async () => {
    const b = new FakeBackend();
    const orig = b.invoke.bind(b);
    b.invoke = ((m: string, ...a: unknown[]) =>
      m === 'SettingsService.Get'
        ? orig('SettingsService.Get').then((r) => ({ ...r, load_error: 'settings.json: invalid character at line 3 — using defaults until you save' }))
        : (orig as (...x: unknown[]) => Promise<unknown>)(m, ...a)) as typeof b.invoke;
    const s = new SettingsStore(b, now);
    await s.load();
    expect(s.loadError).toMatch(/using defaults until you save/);
    expect(s.draft!.concurrency).toBe(1);
    expect(await s.save()).toBe(true);
    expect(s.loadError).toBe('');
  });
});

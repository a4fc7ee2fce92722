import { describe, expect, it } from 'vitest';
import { StubBackend } from '../backend/stub';
import { callError } from '../backend/goldens';
import type { Command } from '../backend/types';
import { CommandStore } from './commands.svelte';

const at = '2026-01-01T00:00:00Z';
const cmd = (name: string, body: string): Command => ({ id: name, name, body, updated_at: at });
const addTests = cmd('add-tests', 'Add table tests for every exported function you touch.');
const smallCommits = cmd('small-commits', 'Commit in small steps with clear messages.');

describe('CommandStore', () => {
  it('creates, edits and deletes commands', async () => {
    const b = new StubBackend({ 'CommandService.List': () => [addTests, smallCommits] });
    const s = new CommandStore(b);
    const off = s.subscribe();
    await s.load();
    expect(s.list.map((c) => c.name)).toEqual(['add-tests', 'small-commits']);
    let benchmarks = cmd('Benchmarks', 'Add a benchmark.');
    b.on('CommandService.Save', () => benchmarks).on('CommandService.List', () => [addTests, benchmarks, smallCommits]);
    const c = await s.save({ id: '', name: 'Benchmarks', body: 'Add a benchmark.' });
    expect(s.list.map((x) => x.name)).toContain('Benchmarks');
    benchmarks = cmd('Benchmarks', 'Add two benchmarks.');
    await s.save({ id: c.id, name: 'Benchmarks', body: 'Add two benchmarks.' });
    expect(b.argsOf('CommandService.Save').at(-1)).toEqual([{ id: c.id, name: 'Benchmarks', body: 'Add two benchmarks.' }]);
    expect(s.list.find((x) => x.id === c.id)!.body).toBe('Add two benchmarks.');
    b.on('CommandService.Delete', () => undefined).on('CommandService.List', () => [addTests, smallCommits]);
    await s.remove(c.id);
    expect(b.argsOf('CommandService.Delete')).toEqual([[c.id]]);
    expect(s.list.map((x) => x.id)).not.toContain(c.id);
    off();
    expect(b.listenerCount('commands:changed')).toBe(0);
  });

  it('refuses empty fields locally and duplicates from the backend', async () => {
    const duplicate = callError('commands: a duplicate name');
    const b = new StubBackend({
      'CommandService.Save': () => {
        throw new Error(duplicate);
      },
    });
    const s = new CommandStore(b);
    await expect(s.save({ id: '', name: ' ', body: 'x' })).rejects.toThrow('Give the command a name.');
    await expect(s.save({ id: '', name: 'x', body: '' })).rejects.toThrow('Write the instruction text.');
    await expect(s.save({ id: '', name: 'add-tests', body: 'x' })).rejects.toThrow(duplicate);
    expect(b.argsOf('CommandService.Save')).toEqual([[{ id: '', name: 'add-tests', body: 'x' }]]);
    expect(b.count('CommandService.List')).toBe(0);
  });
});

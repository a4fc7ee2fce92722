import { describe, expect, it } from 'vitest';
import { FakeBackend } from '../backend/fake';
import { CommandStore } from './commands.svelte';

describe('CommandStore', () => {
  it('creates, edits and deletes commands', async () => {
    const b = new FakeBackend();
    const s = new CommandStore(b);
    const off = s.subscribe();
    await s.load();
    expect(s.list.map((c) => c.name)).toEqual(['add-tests', 'small-commits']);
    const c = await s.save({ id: '', name: 'Benchmarks', body: 'Add a benchmark.' });
    expect(s.list.map((x) => x.name)).toContain('Benchmarks');
    await s.save({ id: c.id, name: 'Benchmarks', body: 'Add two benchmarks.' });
    expect(s.list.find((x) => x.id === c.id)!.body).toBe('Add two benchmarks.');
    await s.remove(c.id);
    expect(s.list.map((x) => x.id)).not.toContain(c.id);
    off();
    expect(b.listenerCount('commands:changed')).toBe(0);
  });

  it('refuses empty fields locally and duplicates from the backend', async () => {
    const b = new FakeBackend();
    const s = new CommandStore(b);
    await expect(s.save({ id: '', name: ' ', body: 'x' })).rejects.toThrow('Give the command a name.');
    await expect(s.save({ id: '', name: 'x', body: '' })).rejects.toThrow('Write the instruction text.');
    await expect(s.save({ id: '', name: 'add-tests', body: 'x' })).rejects.toThrow('A command named "add-tests" already exists.');
    expect(b.commands).toHaveLength(2);
  });
});

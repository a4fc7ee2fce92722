import { describe, expect, it } from 'vitest';
import { shortcutFor } from './shortcuts';

const k = (key: string, o: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean; typing: boolean }> = {}) => ({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, typing: false, ...o });

describe('shortcutFor', () => {
  it.each([
    [k('1', { ctrlKey: true }), { kind: 'screen', screen: 'tasks' }],
    [k('4', { ctrlKey: true }), { kind: 'screen', screen: 'settings' }],
    [k('5', { metaKey: true }), { kind: 'screen', screen: 'review' }],
    [k('6', { ctrlKey: true }), { kind: 'screen', screen: 'merge-queue' }],
    [k('7', { ctrlKey: true }), { kind: 'screen', screen: 'schedules' }],
    [k('n', { ctrlKey: true }), { kind: 'new' }],
    [k('f', { ctrlKey: true, typing: true }), { kind: 'search' }],
    [k('.', { ctrlKey: true }), { kind: 'stop' }],
    [k('/'), { kind: 'search' }],
    [k('Escape'), { kind: 'close' }],
  ])('maps %o', (key, want) => {
    expect(shortcutFor(key)).toEqual(want);
  });

  it('leaves typing alone', () => {
    expect(shortcutFor(k('/', { typing: true }))).toBeNull();
    expect(shortcutFor(k('Escape', { typing: true }))).toBeNull();
    expect(shortcutFor(k('8', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(k('n', { ctrlKey: true, shiftKey: true }))).toBeNull();
    expect(shortcutFor(k('Enter', { ctrlKey: true }))).toBeNull();
  });
});

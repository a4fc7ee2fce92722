import { describe, expect, it } from 'vitest';
import { capital, count, countOr, counts, listOf, plural } from './words';

describe('words', () => {
  it('counts with the right word', () => {
    expect(count(0, 'file')).toBe('0 files');
    expect(count(1, 'file')).toBe('1 file');
    expect(count(2, 'file')).toBe('2 files');
    expect(count(5000, 'file')).toBe((5000).toLocaleString() + ' files');
    expect(count(1, 'branch')).toBe('1 branch');
    expect(count(3, 'branch')).toBe('3 branches');
    expect(count(2, 'entry')).toBe('2 entries');
    expect(count(2, 'hunk', 'hunks dropped')).toBe('2 hunks dropped');
  });

  it('gives the word alone for a count shown apart', () => {
    expect(plural('comment', 1)).toBe('comment');
    expect(plural('comment', 0)).toBe('comments');
    expect(plural('is', 1)).toBe('is');
    expect(plural('is', 4)).toBe('are');
  });

  it('says none instead of 0 when asked', () => {
    expect(countOr(0, 'comment', 'no comment')).toBe('no comment');
    expect(countOr(1, 'comment', 'no comment')).toBe('1 comment');
  });

  it('joins a list as a sentence does', () => {
    expect(listOf([])).toBe('');
    expect(listOf(['a'])).toBe('a');
    expect(listOf(['a', 'b'])).toBe('a and b');
    expect(listOf(['a', 'b', 'c'])).toBe('a, b and c');
  });

  it('names only the counts that are not 0', () => {
    expect(counts([1, 'comment'], [0, 'dropped hunk'])).toBe('1 comment');
    expect(counts([2, 'comment'], [1, 'dropped hunk'])).toBe('2 comments and 1 dropped hunk');
    expect(counts([0, 'comment'], [0, 'dropped hunk'])).toBe('');
    expect(counts([0, 'comment'], [3, 'hunk', 'hunks to drop'])).toBe('3 hunks to drop');
  });

  it('starts a sentence with a capital', () => {
    expect(capital('merge request !3')).toBe('Merge request !3');
    expect(capital('')).toBe('');
    expect(capital('écrit')).toBe('Écrit');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import Sha from './Sha.svelte';
import CommitList from '../review/CommitList.svelte';

const FULL = '9b8e771f00c0ffee1234567890abcdef12345678';

describe('Sha', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('shows 9 characters and copies the full id', async () => {
    const write = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: write }, configurable: true });
    render(Sha, { sha: FULL });
    expect(screen.getByText('9b8e771f0').getAttribute('title')).toBe(FULL);
    await fireEvent.click(screen.getByRole('button', { name: 'Copy 9b8e771f0' }));
    expect(write).toHaveBeenCalledWith(FULL);
  });

  it('shows a ref name as it is, without a copy button', () => {
    render(Sha, { sha: 'main' });
    expect(screen.getByText('main')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('gives every commit of the list its short id and copy button', () => {
    render(CommitList, { commits: [{ sha: FULL, subject: 'Rename', author: 'dev', date: '2026-11-30T07:00:00Z' }] });
    expect(screen.getByRole('list', { name: 'Commits' }).textContent).not.toContain(FULL);
    expect(screen.getByRole('button', { name: 'Copy 9b8e771f0' })).toBeTruthy();
  });
});

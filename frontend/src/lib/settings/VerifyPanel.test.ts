import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import VerifyPanel from './VerifyPanel.svelte';
import { StubBackend } from '../backend/stub';
import type { RepoVerify } from '../backend/queue-api';

const repo = '/home/me/project';
/** The working directory's repository: a Go module, no verify command yet (go.mod suggests one). */
const unset = (): RepoVerify => ({ path: repo, command: '', exists: true, suggestions: [{ command: 'go test ./...', because: 'go.mod' }] });
const set = (command: string): RepoVerify => ({ path: repo, command, exists: true, suggestions: [] });

describe('VerifyPanel', () => {
  it('shows the suggestion without applying it, applies it on "Use it", and removes the command', async () => {
    const b = new StubBackend({
      'VerifyService.Repos': () => [unset()],
      'VerifyService.Set': (_path, command) => set(command),
      'VerifyService.Unset': () => unset(),
    });
    render(VerifyPanel, { backend: b });
    expect((await screen.findByText(/Suggested:/)).textContent).toContain('go test ./...');
    expect(screen.getByText('(from go.mod)')).toBeTruthy();
    const input = screen.getByRole('textbox', { name: 'Verify command of /home/me/project' }) as HTMLInputElement;
    expect(input.value).toBe('');
    expect(b.count('VerifyService.Set')).toBe(0);

    await fireEvent.click(screen.getByRole('button', { name: 'Use it' }));
    expect((await screen.findByRole('status')).textContent).toBe('Verify command of /home/me/project: go test ./...');
    expect(input.value).toBe('go test ./...');
    expect(screen.queryByText(/Suggested:/)).toBeNull();
    expect(b.argsOf('VerifyService.Set')).toEqual([[repo, 'go test ./...']]);

    await fireEvent.input(input, { target: { value: 'make check' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(b.argsOf('VerifyService.Set').at(-1)).toEqual([repo, 'make check']);

    await fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect((await screen.findByRole('status')).textContent).toBe('Removed the verify command of /home/me/project.');
    expect(b.argsOf('VerifyService.Unset')).toEqual([[repo]]);
    expect(input.value).toBe('');
    expect(await screen.findByText(/Suggested:/)).toBeTruthy();
  });

  it('shows a refused command and keeps what was stored', async () => {
    const b = new StubBackend({ 'VerifyService.Repos': () => [unset()] });
    render(VerifyPanel, { backend: b });
    const input = (await screen.findByRole('textbox', { name: 'Verify command of /home/me/project' })) as HTMLInputElement;
    b.failNext('VerifyService.Set', 'The verify command is too long.');
    await fireEvent.input(input, { target: { value: 'x' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The verify command is too long.');
    expect(b.argsOf('VerifyService.Set')).toEqual([[repo, 'x']]);
    expect(screen.getByText(/Suggested:/)).toBeTruthy();
  });
});

import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import VerifyPanel from './VerifyPanel.svelte';
import { FakeBackend } from '../backend/fake';

describe('VerifyPanel', () => {
  it('shows the suggestion without applying it, applies it on "Use it", and removes the command', async () => {
    const b = new FakeBackend();
    render(VerifyPanel, { backend: b });
    expect((await screen.findByText(/Suggested:/)).textContent).toContain('go test ./...');
    expect(screen.getByText('(from go.mod)')).toBeTruthy();
    const input = screen.getByRole('textbox', { name: 'Verify command of /home/me/project' }) as HTMLInputElement;
    expect(input.value).toBe('');
    expect(b.calls.some((c) => c.method === 'VerifyService.Set')).toBe(false);

    await fireEvent.click(screen.getByRole('button', { name: 'Use it' }));
    expect((await screen.findByRole('status')).textContent).toBe('Verify command of /home/me/project: go test ./...');
    expect(input.value).toBe('go test ./...');
    expect(screen.queryByText(/Suggested:/)).toBeNull();
    expect((await b.invoke('VerifyService.Get', '/home/me/project')).command).toBe('go test ./...');

    await fireEvent.input(input, { target: { value: 'make check' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await b.invoke('VerifyService.Get', '/home/me/project')).command).toBe('make check');

    await fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect((await screen.findByRole('status')).textContent).toBe('Removed the verify command of /home/me/project.');
    expect(input.value).toBe('');
    expect(await screen.findByText(/Suggested:/)).toBeTruthy();
  });

  it('shows a refused command and keeps what was stored', async () => {
    const b = new FakeBackend();
    render(VerifyPanel, { backend: b });
    const input = (await screen.findByRole('textbox', { name: 'Verify command of /home/me/project' })) as HTMLInputElement;
    b.failNext('VerifyService.Set', 'The verify command is too long.');
    await fireEvent.input(input, { target: { value: 'x' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The verify command is too long.');
    expect((await b.invoke('VerifyService.Get', '/home/me/project')).command).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/svelte';
import { StubBackend } from '../backend/stub';
import ForgesPanel from './ForgesPanel.svelte';

describe('ForgesPanel', () => {
  it('stores a token without showing it back, says where, and forgets it', async () => {
    const b = new StubBackend({
      'ForgeService.SetToken': (host, token) => {
        if (/\s/.test(token)) throw new Error('Nothing stored: a token is one word of printable characters, without spaces.');
        return { kind: 'file', path: '/data/forge-tokens.json' };
      },
      'ForgeService.ForgetToken': () => undefined,
    });
    render(ForgesPanel, { backend: b });
    const host = screen.getByRole('textbox', { name: 'Host' });
    const token = screen.getByLabelText('Token') as HTMLInputElement;
    expect(token.type).toBe('password');
    await fireEvent.input(host, { target: { value: 'git.example.com' } });
    await fireEvent.input(token, { target: { value: 'two words' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Store token' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Nothing stored: a token is one word of printable characters, without spaces.'));
    expect(token.value).toBe('two words');
    await fireEvent.input(token, { target: { value: 'glpat-abc' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Store token' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/Stored the token of git.example.com in \/data\/forge-tokens.json, which only you can read \(mode 0600\)/));
    expect(token.value).toBe('');
    expect(document.body.innerHTML).not.toContain('glpat-abc');
    expect(b.argsOf('ForgeService.SetToken').at(-1)).toEqual(['git.example.com', 'glpat-abc']);
    await fireEvent.click(screen.getByRole('button', { name: 'Forget token' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Forgot the stored token of git.example.com.'));
    expect(b.argsOf('ForgeService.ForgetToken')).toEqual([['git.example.com']]);
  });
});

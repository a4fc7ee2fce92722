import { describe, expect, it } from 'vitest';
import { StubBackend } from './backend/stub';
import { installDiagnostics, snapshotText } from './diag';
import type { FrontendError } from './backend/types';

describe('installDiagnostics', () => {
  it('reports window errors and unhandled rejections to the backend', async () => {
    const b = new StubBackend({ 'DiagService.ReportError': () => undefined });
    const reported = () => b.argsOf('DiagService.ReportError').map(([e]) => e as FrontendError);
    const off = installDiagnostics(b);
    window.dispatchEvent(new ErrorEvent('error', { message: 'x is not a function', filename: 'app.js', lineno: 7, colno: 3, error: new TypeError('x is not a function') }));
    const rej = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.defineProperty(rej, 'reason', { value: new Error('load failed') });
    window.dispatchEvent(rej);
    await Promise.resolve();
    expect(reported().map((e) => [e.kind, e.message, e.line])).toEqual([
      ['error', 'x is not a function', 7],
      ['unhandledrejection', 'load failed', 0],
    ]);
    off();
    window.dispatchEvent(new ErrorEvent('error', { message: 'after uninstall' }));
    expect(reported()).toHaveLength(2);
  });

  it('answers a ui:snapshot request with the page text', async () => {
    document.body.innerHTML = '<h1>Tasks</h1><div role="dialog" aria-label="Stop this task?"><p>The work is kept</p></div>';
    const b = new StubBackend({ 'DiagService.Snapshot': () => undefined });
    const off = installDiagnostics(b);
    b.emit('ui:snapshot', 4);
    await Promise.resolve();
    const call = b.calls.find((c) => c.method === 'DiagService.Snapshot');
    expect(call?.args[0]).toBe(4);
    expect(String(call?.args[1])).toContain('The work is kept');
    expect(String(call?.args[1])).toContain('[dialog Stop this task?]');
    off();
  });

  it('names the focused field by its label', () => {
    document.body.innerHTML = '<form><label>Prompt <small>(required)</small><textarea></textarea></label></form>';
    document.querySelector('textarea')!.focus();
    expect(snapshotText(document)).toContain('[focus Prompt (required)]');
  });

  it('caps the snapshot size', () => {
    document.body.textContent = 'x'.repeat(300_000);
    expect(snapshotText(document).length).toBe(256 * 1024);
  });
});

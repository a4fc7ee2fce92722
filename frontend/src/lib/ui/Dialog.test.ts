import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRawSnippet } from 'svelte';
import { render, screen, fireEvent, cleanup } from '@testing-library/svelte';
import Dialog from './Dialog.svelte';
import ConfirmDialog from './ConfirmDialog.svelte';

const form = createRawSnippet(() => ({ render: () => '<div><label>New name <input /></label><button>Rename</button></div>' }));

/** A focused button outside the dialog, as the one that opened it. */
function opener(): HTMLButtonElement {
  const b = document.createElement('button');
  b.textContent = 'Open';
  document.body.append(b);
  b.focus();
  return b;
}

describe('Dialog', () => {
  afterEach(() => {
    cleanup();
    document.body.innerHTML = '';
    vi.restoreAllMocks();
  });

  it('opens as a modal named by its title, with focus on the first field', () => {
    const modal = vi.spyOn(HTMLDialogElement.prototype, 'showModal');
    render(Dialog, { title: 'Rename the task', onclose: () => {}, children: form });
    const dlg = screen.getByRole('dialog', { name: 'Rename the task' }) as HTMLDialogElement;
    expect(modal).toHaveBeenCalledOnce();
    expect(dlg.open).toBe(true);
    expect(screen.getByRole('heading', { name: 'Rename the task' }).id).toBe(dlg.getAttribute('aria-labelledby'));
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'New name' }));
  });

  it('without a field, focuses the first button: Cancel, never the confirming one', () => {
    render(ConfirmDialog, { title: 'Stop it?', confirm: 'Stop task', danger: true, onconfirm: () => {}, oncancel: () => {} });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
  });

  it('asks to close on Escape and keeps the key from the app shortcuts', async () => {
    const onclose = vi.fn();
    const appKeys = vi.fn();
    window.addEventListener('keydown', appKeys);
    render(Dialog, { title: 'Rename the task', onclose, children: form });
    await fireEvent.keyDown(screen.getByRole('textbox', { name: 'New name' }), { key: 'Escape' });
    window.removeEventListener('keydown', appKeys);
    expect(onclose).toHaveBeenCalledOnce();
    expect(appKeys).not.toHaveBeenCalled();
  });

  it("asks to close on the platform's close request (cancel) instead of closing itself", async () => {
    const onclose = vi.fn();
    render(Dialog, { title: 'Rename the task', onclose, children: form });
    const dlg = screen.getByRole('dialog') as HTMLDialogElement;
    const ev = new Event('cancel', { cancelable: true });
    dlg.dispatchEvent(ev);
    expect(onclose).toHaveBeenCalledOnce();
    expect(ev.defaultPrevented).toBe(true);
    expect(dlg.open).toBe(true);
  });

  it('gives focus back to the opener when it goes away', () => {
    const b = opener();
    const { unmount } = render(ConfirmDialog, { title: 'Delete it?', confirm: 'Delete', onconfirm: () => {}, oncancel: () => {} });
    const dlg = screen.getByRole('dialog') as HTMLDialogElement;
    expect(document.activeElement).not.toBe(b);
    unmount();
    expect(dlg.open).toBe(false);
    expect(document.activeElement).toBe(b);
  });

  it('keeps Tab inside: past the last button to the first field, Shift+Tab back to the last', async () => {
    render(Dialog, { title: 'Rename the task', onclose: () => {}, children: form });
    const field = screen.getByRole('textbox', { name: 'New name' });
    const last = screen.getByRole('button', { name: 'Rename' });
    last.focus();
    const ev = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true });
    last.dispatchEvent(ev);
    expect(ev.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(field);
    await fireEvent.keyDown(field, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
    // In between, Tab is the browser's own.
    field.focus();
    const mid = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true });
    field.dispatchEvent(mid);
    expect(mid.defaultPrevented).toBe(false);
  });
});

import type { Backend } from './backend/backend';
import { EVENT_NAMES, type FrontendError } from './backend/types';

/** The most text a UI snapshot carries. */
const SNAPSHOT_MAX = 256 * 1024;

/**
 * Sends every uncaught error and unhandled rejection to the Go log (where the
 * test scripts fail on it) and answers the Go side's `ui:snapshot` requests
 * with the text the window shows. Returns the uninstall function.
 */
export function installDiagnostics(backend: Backend, win: Window = window): () => void {
  const report = (e: FrontendError) => {
    // A failing report must not raise another unhandled rejection.
    backend.invoke('DiagService.ReportError', e).catch(() => {});
  };
  const onError = (ev: ErrorEvent) => {
    report({
      kind: 'error',
      message: String(ev.message || ev.error || 'error'),
      source: ev.filename ?? '',
      line: ev.lineno ?? 0,
      column: ev.colno ?? 0,
      stack: ev.error instanceof Error ? (ev.error.stack ?? '') : '',
    });
  };
  const onRejection = (ev: PromiseRejectionEvent) => {
    const r = ev.reason;
    report({
      kind: 'unhandledrejection',
      message: r instanceof Error ? r.message : typeof r === 'string' ? r : JSON.stringify(r) ?? String(r),
      source: '',
      line: 0,
      column: 0,
      stack: r instanceof Error ? (r.stack ?? '') : '',
    });
  };
  win.addEventListener('error', onError);
  win.addEventListener('unhandledrejection', onRejection);
  const off = backend.listen(EVENT_NAMES.uiSnapshot, (seq) => {
    backend.invoke('DiagService.Snapshot', seq, snapshotText(win.document)).catch(() => {});
  });
  return () => {
    win.removeEventListener('error', onError);
    win.removeEventListener('unhandledrejection', onRejection);
    off();
  };
}

/** The visible text of the page, open dialogs last and marked, capped in size. */
export function snapshotText(doc: Document): string {
  const body = doc.body;
  let text = (body.innerText ?? body.textContent ?? '').trim();
  for (const d of doc.querySelectorAll('[role="dialog"], dialog[open]')) {
    const name = d.getAttribute('aria-label') ?? d.querySelector('h1,h2,h3')?.textContent ?? '';
    text += `\n[dialog ${name.trim()}]`;
  }
  const active = doc.activeElement;
  if (active && active !== body) text += `\n[focus ${focusName(active)}]`;
  return text.length > SNAPSHOT_MAX ? text.slice(0, SNAPSHOT_MAX) : text;
}

/** The name a screen reader gives the focused element: aria-label, else its label's text, else its tag. */
function focusName(el: Element): string {
  const aria = el.getAttribute('aria-label');
  if (aria) return aria;
  const label = (el as HTMLInputElement).labels?.[0]?.textContent?.replace(/\s+/g, ' ').trim();
  return label || el.tagName.toLowerCase();
}

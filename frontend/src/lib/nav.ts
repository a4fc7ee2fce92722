import type { Backend } from './backend/backend';
import { EVENT_NAMES, type UIRequest } from './backend/types';

/**
 * Applies the Go side's requests to show a view (the tray, a second launch,
 * a notification click): those queued before the window painted, fetched
 * once with NavService.Ready after the first frame, and every later
 * `ui:open`. Each applied request is reported with NavService.Shown, which
 * the desktop tests and the second-launch benchmark wait for. Requests are
 * applied one at a time, in order; one older than a request already applied
 * (its seq is lower) is dropped, as the newest wins. Returns the unsubscribe
 * function.
 */
export function installNav(backend: Backend, apply: (r: UIRequest) => Promise<void> | void, win: Window = window): () => void {
  let chain = Promise.resolve();
  let closed = false;
  let last = 0;
  const run = (r: UIRequest) => {
    chain = chain
      .then(async () => {
        if (closed || r.seq <= last) return;
        last = r.seq;
        await apply(r);
        await backend.invoke('NavService.Shown', r.seq, r.view);
      })
      .catch(() => {});
  };
  const off = backend.listen(EVENT_NAMES.uiOpen, run);
  // Ready says the window painted: ask after the first frame.
  const frame = win.requestAnimationFrame ?? ((f: FrameRequestCallback) => win.setTimeout(() => f(0), 0));
  frame(() => {
    if (closed) return;
    backend.invoke('NavService.Ready').then(
      (pending) => (pending ?? []).forEach(run),
      () => {},
    );
  });
  return () => {
    closed = true;
    off();
  };
}

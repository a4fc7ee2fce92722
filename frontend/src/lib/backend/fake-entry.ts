import type { Backend } from './backend';
import { FakeBackend } from './fake';

/** The browser build's backend: the fake, streaming, and reachable from e2e scripts. */
export function createBackend(): Backend {
  const b = new FakeBackend({ streamMs: 100 });
  (window as unknown as { __fake: FakeBackend }).__fake = b;
  return b;
}

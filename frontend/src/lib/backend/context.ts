import { getContext, setContext } from 'svelte';
import type { Backend } from './backend';

const KEY = Symbol('backend');

export function provideBackend(b: Backend): void {
  setContext(KEY, b);
}

export function useBackend(): Backend {
  const b = getContext<Backend | undefined>(KEY);
  if (!b) throw new Error('no backend in context');
  return b;
}

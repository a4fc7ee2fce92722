import type { Api } from './api';
import type { EventName, Payload } from './events.gen';
import { EVENT_NAMES } from './events.gen';

/** The one seam between the UI and Go. Only this folder knows about Wails. */
export interface Backend {
  invoke<K extends keyof Api>(method: K, ...args: Parameters<Api[K]>): Promise<Awaited<ReturnType<Api[K]>>>;
  /** Subscribes to an event Go emits, typed by its name; returns the unsubscribe function. */
  listen<K extends EventName>(name: K, handler: (payload: Payload<K>) => void): () => void;
}

/** The name of the event carrying the running task's output (task:output:<id>). */
export function taskOutputEvent(taskId: string): `${typeof EVENT_NAMES.taskOutput}${string}` {
  return `${EVENT_NAMES.taskOutput}${taskId}`;
}

/** Turns whatever a rejected call carries into one readable line. */
export function errorMessage(err: unknown): string {
  let msg: string;
  if (typeof err === 'string') msg = err;
  else if (err instanceof Error) msg = err.message;
  else if (err && typeof err === 'object' && 'message' in err) msg = String((err as { message: unknown }).message);
  else msg = 'Unexpected error';
  // Never show a Go stack trace or a multi-line dump: keep the first line.
  msg = msg.split('\n')[0].trim();
  if (msg.startsWith('goroutine ') || msg === '') msg = 'Unexpected error';
  if (msg.length > 300) msg = msg.slice(0, 297) + '...';
  // As Go's usererr does: a first word that is a name (a URL, a path, an id) keeps its case.
  return startsWithWord(msg) ? msg.charAt(0).toUpperCase() + msg.slice(1) : msg;
}

/**
 * Whether the text's first word (up to a space, comma, semicolon, or a colon that ends it) is
 * letters alone; an address ("https://…", "javascript:…") is no word.
 */
function startsWithWord(s: string): boolean {
  let word = s.split(/[ ,;]/, 1)[0];
  const colon = word.indexOf(':');
  if (colon >= 0) {
    if (colon + 1 < word.length) return false;
    word = word.slice(0, colon);
  }
  return word !== '' && /^[\p{L}']+$/u.test(word);
}

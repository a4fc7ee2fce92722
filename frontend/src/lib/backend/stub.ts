// The backend of component tests: scripted answers, recorded calls, events
// the test emits. It knows none of Go's rules (statuses, limits, sentences):
// a test scripts what the real services would answer (their sentences from
// the goldens Go writes, goldens.ts), and what the services do is tested
// against them (the Go tests, the browser flows in e2e/real/).
import type { Api, Method } from './api';
import type { Backend } from './backend';
import type { EventName, Payload } from './events.gen';

/** What a method answers: its result, or a thrown Error whose message is Go's error text. */
export type Answer<K extends Method> = (...args: Parameters<Api[K]>) => Awaited<ReturnType<Api[K]>> | Promise<Awaited<ReturnType<Api[K]>>>;

/** The answers of the methods a test uses. */
export type Script = { [K in Method]?: Answer<K> };

/** One recorded call. */
export interface Call {
  method: Method;
  args: unknown[];
}

export class StubBackend implements Backend {
  /** Every call, in order. */
  readonly calls: Call[] = [];
  private readonly answers = new Map<Method, (...args: unknown[]) => unknown>();
  private readonly failures = new Map<Method, string>();
  private readonly listeners = new Map<string, Set<(p: unknown) => void>>();

  constructor(script: Script = {}) {
    for (const [m, a] of Object.entries(script)) this.answers.set(m as Method, a as (...args: unknown[]) => unknown);
  }

  /** Scripts (or scripts again) what method answers. */
  on<K extends Method>(method: K, answer: Answer<K>): this {
    this.answers.set(method, answer as (...args: unknown[]) => unknown);
    return this;
  }

  /** Makes the next call of method reject with message, as Go's error text. */
  failNext(method: Method, message: string): void {
    this.failures.set(method, message);
  }

  invoke<K extends Method>(method: K, ...args: Parameters<Api[K]>): Promise<Awaited<ReturnType<Api[K]>>> {
    this.calls.push({ method, args: structuredClone(args) });
    const fail = this.failures.get(method);
    if (fail !== undefined) {
      this.failures.delete(method);
      return Promise.reject(fail);
    }
    const answer = this.answers.get(method);
    if (!answer) return Promise.reject(new Error(`stub: no answer scripted for ${method}`));
    // As the transport does: a copy of the answer, a rejection carrying the error text.
    return Promise.resolve()
      .then(() => answer(...args))
      .then(
        (v) => (v === undefined ? v : structuredClone(v)) as Awaited<ReturnType<Api[K]>>,
        (e: unknown) => Promise.reject(e instanceof Error ? e.message : String(e)),
      );
  }

  listen<K extends EventName>(name: K, handler: (payload: Payload<K>) => void): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    const h = handler as (p: unknown) => void;
    set.add(h);
    return () => set.delete(h);
  }

  /** Emits an event to the listeners, as Go does. */
  emit<K extends EventName>(name: K, ...payload: Payload<K> extends void ? [] : [Payload<K>]): void {
    for (const h of [...(this.listeners.get(name) ?? [])]) h(payload[0]);
  }

  listenerCount(name: EventName): number {
    return this.listeners.get(name)?.size ?? 0;
  }

  /** The arguments of each call of method, in order. */
  argsOf<K extends Method>(method: K): Parameters<Api[K]>[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args as Parameters<Api[K]>);
  }

  /** How many times method was called. */
  count(method: Method): number {
    return this.calls.filter((c) => c.method === method).length;
  }
}

/** Refuses a call with Go's error text (throw it from an answer). */
export function refusal(message: string): Error {
  return new Error(message);
}

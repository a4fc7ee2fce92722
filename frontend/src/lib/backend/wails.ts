import type { Backend } from './backend';
import type { Api } from './api';
import type { EventName, Payload } from './events.gen';

type Bound = Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>;

interface WailsWindow {
  go?: { app?: Bound };
  runtime?: { EventsOn(name: string, cb: (...data: unknown[]) => void): () => void };
}

/** Backend over the Wails v2 bindings of the Go package `app`. */
export class WailsBackend implements Backend {
  constructor(private readonly win: WailsWindow = window as unknown as WailsWindow) {}

  invoke<K extends keyof Api>(method: K, ...args: Parameters<Api[K]>): Promise<Awaited<ReturnType<Api[K]>>> {
    const [service, name] = method.split('.');
    const fn = this.win.go?.app?.[service]?.[name];
    if (typeof fn !== 'function') {
      return Promise.reject(new Error(`The backend does not provide ${method}`));
    }
    return fn(...args) as Promise<Awaited<ReturnType<Api[K]>>>;
  }

  listen<K extends EventName>(event: K, handler: (payload: Payload<K>) => void): () => void {
    const rt = this.win.runtime;
    if (!rt) return () => {};
    const off = rt.EventsOn(event, (payload: unknown) => handler(payload as Payload<K>));
    return typeof off === 'function' ? off : () => {};
  }
}

export function createBackend(): Backend {
  return new WailsBackend();
}

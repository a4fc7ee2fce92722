import { describe, expect, it } from 'vitest';
import { WailsBackend } from './wails';
import { errorMessage } from './backend';

describe('WailsBackend', () => {
  it('calls window.go.app.<Service>.<Method> with positional args', async () => {
    const seen: unknown[][] = [];
    const win = {
      go: { app: { TaskService: { SetSkip: (...a: unknown[]) => (seen.push(a), Promise.resolve({ id: 'x', skip: true })) } } },
    };
    const b = new WailsBackend(win as never);
    await expect(b.invoke('TaskService.SetSkip', 'x', true)).resolves.toMatchObject({ skip: true });
    expect(seen).toEqual([['x', true]]);
  });

  it('rejects readably when a method is not bound', async () => {
    const b = new WailsBackend({ go: { app: {} } } as never);
    await expect(b.invoke('RunService.Stop', 'x')).rejects.toThrow('The backend does not provide RunService.Stop');
  });

  it('passes the Go error string through as a rejection', async () => {
    const win = { go: { app: { TaskService: { Get: () => Promise.reject('task not found: x') } } } };
    const b = new WailsBackend(win as never);
    const err = await b.invoke('TaskService.Get', 'x').catch((e) => e);
    expect(errorMessage(err)).toBe('Task not found: x');
  });

  it('listens through runtime.EventsOn and returns its unsubscribe', () => {
    const handlers = new Map<string, (...d: unknown[]) => void>();
    const win = {
      runtime: {
        EventsOn: (name: string, cb: (...d: unknown[]) => void) => {
          handlers.set(name, cb);
          return () => handlers.delete(name);
        },
      },
    };
    const b = new WailsBackend(win as never);
    const got: unknown[] = [];
    const off = b.listen('runner:status', (p) => got.push(p));
    handlers.get('runner:status')!({ enabled: false });
    expect(got).toEqual([{ enabled: false }]);
    off();
    expect(handlers.size).toBe(0);
  });
});

describe('errorMessage', () => {
  it('keeps one readable line', () => {
    expect(errorMessage(new Error('x'))).toBe('X');
    expect(errorMessage('goroutine 1 [running]:\nmain.main()')).toBe('Unexpected error');
    expect(errorMessage({ message: 'boom\nstack' })).toBe('Boom');
    expect(errorMessage(undefined)).toBe('Unexpected error');
    expect(errorMessage('a'.repeat(400))).toHaveLength(300);
  });

  it('keeps the case of a first word that is a name, as Go words it', () => {
    // backend/usererr's sentence(): a first word with a dot, slash or digit is a name.
    expect(errorMessage('boof-runner/fix-T1 on origin is at abc1234.')).toBe('boof-runner/fix-T1 on origin is at abc1234.');
    expect(errorMessage('settings.json: unreadable')).toBe('settings.json: unreadable');
    expect(errorMessage("can't push: no remote")).toBe("Can't push: no remote");
    expect(errorMessage('https://x.org/o/r/issues/1 is not on a forge')).toBe('https://x.org/o/r/issues/1 is not on a forge');
    expect(errorMessage('javascript:alert(1) is not an issue')).toBe('javascript:alert(1) is not an issue');
  });
});

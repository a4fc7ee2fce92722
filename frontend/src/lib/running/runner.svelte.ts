import type { Backend } from '../backend/backend';
import { errorMessage } from '../backend/backend';
import { run } from '../busy';
import { EVENT_NAMES, type InjectResult, type RunnerStatus, type RunningInfo } from '../backend/types';

/** Runner state (paused or not, what runs) and the stop/inject controls. */
export class RunnerStore {
  status = $state<RunnerStatus>({ enabled: true, lock_held: true, running: [] });
  error = $state('');

  constructor(private readonly backend: Backend) {}

  subscribe(): () => void {
    return this.backend.listen(EVENT_NAMES.runnerStatus, (s) => {
      if (s && Array.isArray(s.running)) this.status = s;
      else void this.load();
    });
  }

  async load(): Promise<void> {
    const r = await run(this, () => this.backend.invoke('RunService.Status'), { fail: 'Could not read the runner status' });
    if (r.ok) this.status = { ...r.value, running: r.value.running ?? [] };
  }

  running(taskId: string): RunningInfo | undefined {
    return this.status.running.find((r) => r.task_id === taskId);
  }

  async setEnabled(on: boolean): Promise<void> {
    const r = await run(this, () => this.backend.invoke('RunService.SetEnabled', on));
    if (r.ok) this.status = { ...r.value, running: r.value.running ?? [] };
  }

  /** Ends a tool's usage-limit pause now (resume early). */
  async resumeTool(tool: string): Promise<void> {
    const r = await run(this, () => this.backend.invoke('RunService.ResumeTool', tool));
    if (r.ok) this.status = { ...r.value, running: r.value.running ?? [] };
  }

  /** Stops a running task; throws the readable message on failure. */
  async stop(taskId: string): Promise<void> {
    try {
      await this.backend.invoke('RunService.Stop', taskId);
    } catch (e) {
      throw new Error(errorMessage(e));
    }
    void this.load();
  }

  /** Sends a prompt to a running task; throws the readable message on failure. */
  async inject(taskId: string, text: string): Promise<InjectResult> {
    if (!text.trim()) throw new Error('Write something to send');
    try {
      return await this.backend.invoke('RunService.Inject', taskId, text);
    } catch (e) {
      throw new Error(errorMessage(e));
    }
  }
}

/** "1:05" / "1:02:03" for an elapsed time in ms. */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** 1234567 → "1.2M", 48200 → "48.2k". */
export function compact(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/**
 * Which run a step belongs to, as the running header says it: "run 2 of 3"
 * for a planned run, "fix run 1 · iteration 2" for a fix run (its iteration,
 * counted over every run and fix run, is past the planned runs).
 */
export function runLabel(info: Pick<RunningInfo, 'iteration' | 'iterations' | 'fix'>): string {
  if (info.fix) return `fix run ${info.fix} · iteration ${info.iteration}`;
  return info.iterations > 1 ? `run ${info.iteration} of ${info.iterations}` : `run ${info.iteration}`;
}

import type { Backend } from '../backend/backend';
import { errorMessage } from '../backend/backend';
import type { DiffSummary, FilePatch } from '../backend/types';

export interface PatchLine {
  n: number;
  kind: 'add' | 'del' | 'hunk' | 'meta' | 'ctx';
  text: string;
}

/** Splits a unified patch into typed lines for colouring. */
export function patchLines(patch: string): PatchLine[] {
  const lines = patch.endsWith('\n') ? patch.slice(0, -1).split('\n') : patch.split('\n');
  return lines.map((text, n) => ({
    n,
    text,
    kind: text.startsWith('@@') ? 'hunk' : text.startsWith('+++') || text.startsWith('---') ? 'meta' : text.startsWith('+') ? 'add' : text.startsWith('-') ? 'del' : 'ctx',
  }));
}

/** Review of one task: the file list from the summary, each file's patch on demand (small cache). */
export class ReviewStore {
  summary = $state.raw<DiffSummary | null>(null);
  selected = $state<string | null>(null);
  patch = $state.raw<FilePatch | null>(null);
  error = $state('');
  loadingPatch = $state(false);
  totals = $derived(this.summary?.files.reduce((a, f) => ({ add: a.add + f.additions, del: a.del + f.deletions }), { add: 0, del: 0 }) ?? { add: 0, del: 0 });
  private cache = new Map<string, FilePatch>();
  private seq = 0;

  constructor(
    private readonly backend: Backend,
    readonly taskId: string,
  ) {}

  async load(): Promise<void> {
    try {
      this.summary = await this.backend.invoke('ReviewService.Summary', this.taskId);
      this.error = '';
      if (this.summary.files.length) await this.select(this.summary.files[0].path);
    } catch (e) {
      this.error = `Could not load the changes: ${errorMessage(e)}`;
    }
  }

  async select(path: string, force = false): Promise<void> {
    this.selected = path;
    const key = `${force ? '!' : ''}${path}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.patch = hit;
      return;
    }
    const my = ++this.seq;
    this.loadingPatch = true;
    try {
      const p = await this.backend.invoke('ReviewService.FilePatch', this.taskId, path, force);
      if (this.cache.size > 50) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, p);
      if (my === this.seq) this.patch = p;
      this.error = '';
    } catch (e) {
      if (my === this.seq) this.error = `Could not load ${path}: ${errorMessage(e)}`;
    } finally {
      if (my === this.seq) this.loadingPatch = false;
    }
  }

  /** Moves the selection by `delta` files (keyboard navigation). */
  step(delta: number): void {
    const files = this.summary?.files ?? [];
    if (!files.length) return;
    const i = files.findIndex((f) => f.path === this.selected);
    const next = files[Math.max(0, Math.min(files.length - 1, i + delta))];
    if (next && next.path !== this.selected) void this.select(next.path);
  }
}

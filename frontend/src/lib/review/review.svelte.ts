import type { Backend } from '../backend/backend';
import { run } from '../busy';
import { byCodeUnits } from '../order';
import type { CommitInfo, DiffSummary, FilePatch, Report } from '../backend/types';
import type { AcceptSelection, ChangeRequest, TaskBranch } from '../backend/review-api';
import { buildChangeRequest, choiceKey, parseHunks, patchLines, sideBySide, type Hunk, type HunkChoice } from './hunks';

export { patchLines, parseHunks, type PatchLine, type Hunk, type SideRow } from './hunks';

export type ReviewTab = 'changes' | 'leftovers' | 'commits' | 'reports';

/** Review of one task: the file list from the summary, each file's patch on demand (small cache). */
export class ReviewStore {
  tab = $state<ReviewTab>('changes');
  summary = $state.raw<DiffSummary | null>(null);
  commits = $state.raw<CommitInfo[]>([]);
  /** The observer and reviewer reports with their verdicts, newest iteration first. */
  reports = $state.raw<Report[]>([]);
  selected = $state<string | null>(null);
  patch = $state.raw<FilePatch | null>(null);
  error = $state('');
  loadingPatch = $state(false);
  totals = $derived(this.summary?.files.reduce((a, f) => ({ add: a.add + f.additions, del: a.del + f.deletions }), { add: 0, del: 0 }) ?? { add: 0, del: 0 });
  /** Lines and hunks of the shown patch (empty for binary or too-large files). */
  lines = $derived(this.patch && !this.patch.binary && !this.patch.too_large ? patchLines(this.patch.patch) : []);
  hunks = $derived(parseHunks(this.lines));
  /** The hunk n/p moved to. */
  hunk = $state(0);
  /** Per-hunk comments and drops of the changes tab, by choiceKey(file, hunk). */
  choices = $state<Record<string, HunkChoice>>({});
  general = $state('');
  /** The request being built: what "Send" would send. */
  request: ChangeRequest = $derived(buildChangeRequest(this.general, Object.values(this.choices)));
  busy = $state(false);
  /** Show the patch side by side instead of unified. */
  sideBySide = $state(false);
  /** Rows of the side-by-side view of the shown patch. */
  sideRows = $derived(this.sideBySide ? sideBySide(this.lines) : []);
  /** Hide whitespace-only changes in the shown patches. */
  ignoreWhitespace = $state(false);
  /** Result of the last decision, shown to the user. */
  notice = $state('');
  /** Files and hunks chosen for a hunk-level accept: a whole file (true) or its 1-based hunks. */
  picks = $state<Record<string, true | number[]>>({});
  /** The chosen files and hunks, as Accept takes them. */
  selection: AcceptSelection[] = $derived(
    Object.entries(this.picks)
      .filter(([, p]) => p === true || p.length > 0)
      .map(([file, p]) => (p === true ? { file } : { file, hunks: [...p].sort((a, b) => a - b) })),
  );
  private cache = new Map<string, FilePatch>();
  private seq = 0;

  constructor(
    private readonly backend: Backend,
    readonly taskId: string,
  ) {}

  /** Switches between the task branch, its leftovers branch and the commit list. */
  async show(tab: ReviewTab): Promise<void> {
    this.tab = tab;
    this.cache.clear();
    this.patch = null;
    this.selected = null;
    if (tab === 'reports') {
      const r = await run(this, () => this.backend.invoke('TaskService.Get', this.taskId), { fail: 'Could not load the reports' });
      if (r.ok)
        this.reports = (r.value.reports ?? [])
          .filter((r) => r.role === 'observer' || r.role === 'reviewer')
          .sort((a, b) => b.iteration - a.iteration || byCodeUnits(a.created_at, b.created_at));
      return;
    }
    if (tab === 'commits') {
      const r = await run(this, () => this.backend.invoke('ReviewService.Commits', this.taskId, false), { fail: 'Could not list the commits' });
      if (r.ok) this.commits = r.value ?? [];
      return;
    }
    await this.load();
  }

  async load(): Promise<void> {
    const leftovers = this.tab === 'leftovers';
    const r = await run(this, () => this.backend.invoke(leftovers ? 'ReviewService.LeftoversSummary' : 'ReviewService.Summary', this.taskId), {
      fail: `Could not load the ${leftovers ? 'leftovers' : 'changes'}`,
    });
    this.summary = r.ok ? { ...r.value, files: r.value.files ?? [] } : null;
    if (this.summary?.files.length) await this.select(this.summary.files[0].path);
  }

  async select(path: string, force = false): Promise<void> {
    this.selected = path;
    const key = `${force ? '!' : ''}${this.ignoreWhitespace ? 'w:' : ''}${path}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.patch = hit;
      this.hunk = 0;
      return;
    }
    const my = ++this.seq;
    const r = await run(
      this,
      async () => {
        const p = this.ignoreWhitespace
          ? await this.backend.invoke('ReviewService.FilePatchWith', this.taskId, path, { force, ignore_whitespace: true, leftovers: this.tab === 'leftovers' })
          : this.tab === 'leftovers'
            ? await this.backend.invoke('ReviewService.LeftoversFilePatch', this.taskId, path, force)
            : await this.backend.invoke('ReviewService.FilePatch', this.taskId, path, force);
        if (this.cache.size > 50) this.cache.delete(this.cache.keys().next().value!);
        this.cache.set(key, p);
        return p;
      },
      { fail: `Could not load ${path}`, flag: 'loadingPatch', current: () => my === this.seq },
    );
    if (r.ok) {
      this.patch = r.value;
      this.hunk = 0;
    }
  }

  /** Turns hiding whitespace-only changes on or off and reloads the shown file. */
  async setIgnoreWhitespace(on: boolean): Promise<void> {
    this.ignoreWhitespace = on;
    if (this.selected) await this.select(this.selected);
  }

  /** Moves the selection by `delta` files (keyboard navigation). */
  step(delta: number): void {
    const files = this.summary?.files ?? [];
    if (!files.length) return;
    const i = files.findIndex((f) => f.path === this.selected);
    const next = files[Math.max(0, Math.min(files.length - 1, i + delta))];
    if (next && next.path !== this.selected) void this.select(next.path);
  }
  /** Moves the current hunk by `delta` within the shown file; returns it. */
  stepHunk(delta: number): Hunk | undefined {
    if (!this.hunks.length) return undefined;
    this.hunk = Math.max(0, Math.min(this.hunks.length - 1, this.hunk + delta));
    return this.hunks[this.hunk];
  }

  /** The user's choice on hunk `h` of the shown file, if any. */
  choice(h: Hunk): HunkChoice | undefined {
    return this.patch ? this.choices[choiceKey(this.patch.path, h.index)] : undefined;
  }

  private edit(h: Hunk, change: Partial<HunkChoice>): void {
    if (!this.patch) return;
    const file = this.patch.path;
    const key = choiceKey(file, h.index);
    const next = { ...(this.choices[key] ?? { file, hunk: h.index, line: h.newStart, text: h.text, comment: '', drop: false }), ...change };
    if (!next.comment.trim() && !next.drop) delete this.choices[key];
    else this.choices[key] = next;
  }

  /** Sets the comment on hunk `h` of the shown file ("" removes it). */
  comment(h: Hunk, text: string): void {
    this.edit(h, { comment: text });
  }

  /** Marks or unmarks hunk `h` of the shown file to be dropped. */
  toggleDrop(h: Hunk): void {
    this.edit(h, { drop: !this.choice(h)?.drop });
  }

  /** Chooses or un-chooses a whole file for a hunk-level accept. */
  pickFile(path: string): void {
    const next = { ...this.picks };
    if (next[path] === true) delete next[path];
    else next[path] = true;
    this.picks = next;
  }

  /** Whether the whole file, or (with a hunk) that hunk of the shown file, is chosen. */
  picked(path: string, h?: Hunk): boolean {
    const p = this.picks[path];
    if (p === undefined) return false;
    if (p === true) return true;
    return h ? p.includes(h.index + 1) : false;
  }

  /** Chooses or un-chooses one hunk of the shown file; a whole-file choice becomes every hunk but this one. */
  pickHunk(h: Hunk): void {
    const path = this.selected;
    if (!path) return;
    const cur = this.picks[path];
    const all = this.hunks.map((x) => x.index + 1);
    let set = cur === true ? all : [...(cur ?? [])];
    const n = h.index + 1;
    set = set.includes(n) ? set.filter((x) => x !== n) : [...set, n];
    const next = { ...this.picks };
    if (!set.length) delete next[path];
    else next[path] = set.length === all.length ? true : set;
    this.picks = next;
  }

  /** Sends the comments and dropped hunks back to the developer; true when sent. */
  async requestChanges(): Promise<boolean> {
    const req = this.request;
    if (!req.general && !req.comments.length && !req.drops.length) {
      this.error = 'Write a comment or mark a hunk to drop first.';
      return false;
    }
    const r = await run(this, () => this.backend.invoke('ReviewService.RequestChanges', this.taskId, req), { flag: 'busy' });
    if (!r.ok) return false;
    this.choices = {};
    this.general = '';
    this.notice = `Fix run ${r.value.fix} queued: the developer gets your ${req.comments.length} comments${req.general ? ' and general comment' : ''}, after ${req.drops.length} dropped hunks are reverted.`;
    return true;
  }

  /** Rejects the task; its branches are kept. */
  async reject(): Promise<boolean> {
    return this.decide('ReviewService.Reject', () => 'Rejected. The task branch and its leftovers are kept.');
  }

  /** Lists the task's branches for the reject dialog's "delete branches" choice. */
  async taskBranches(): Promise<TaskBranch[]> {
    const r = await run(this, () => this.backend.invoke('ReviewService.TaskBranches', this.taskId), { fail: "Could not list the task's branches" });
    return (r.ok && r.value) || [];
  }

  /** Rejects the task and deletes exactly the branches the user confirmed. */
  async rejectDeletingBranches(confirm: TaskBranch[]): Promise<boolean> {
    const r = await run(this, () => this.backend.invoke('ReviewService.RejectDeletingBranches', this.taskId, confirm), { fail: 'Could not reject', flag: 'busy' });
    if (r.ok) this.notice = `Rejected. Deleted ${r.value.deleted.map((b) => b.name).join(' and ')}.`;
    return r.ok;
  }

  /** Undoes the accept of an accepted task. */
  async undoAccept(): Promise<boolean> {
    return this.decide('ReviewService.UndoAccept', () => 'Accept undone: the target branch is back where it was; the task is done again.');
  }

  private async decide(
    method: 'ReviewService.Reject' | 'ReviewService.UndoAccept',
    done: () => string,
  ): Promise<boolean> {
    const r = await run(this, () => this.backend.invoke(method, this.taskId), { flag: 'busy' });
    if (r.ok) this.notice = done();
    return r.ok;
  }
}


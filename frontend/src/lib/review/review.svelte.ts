import type { Backend } from '../backend/backend';
import { run } from '../busy';
import { byCodeUnits } from '../order';
import type { CommitInfo, DiffSummary, Report } from '../backend/types';
import type { AcceptSelection, ChangeRequest, FileDiff, TaskBranch } from '../backend/review-api';
import { buildChangeRequest, hunkKey, type DraftComment, type DraftDrop } from './hunks';
import { diffRows, sideRows, type DiffHunkData, type DiffLineData, type Row, type SideRow } from './diffrows';
import { fromDraft, toDraft } from './draft';
import { treeOrder } from './filetree';
import { count, countOr, plural } from '../words/words';

export type { Row, SideRow } from './diffrows';
export type { DraftComment } from './hunks';

export type ReviewTab = 'changes' | 'leftovers' | 'commits' | 'reports';
/** The diff layout, remembered through SettingsService.SetDiffView. */
export type DiffLayout = 'unified' | 'split';

/** Lines of a file's diff asked for at a time (FileDiff pages the rest as the view scrolls to it). */
export const PAGE_LINES = 2000;
/** How long the draft waits after the last change before it is saved. */
export const SAVE_DELAY_MS = 400;

/** Lines chosen by clicking line numbers (shift-click extends): the anchor of the next comment. */
export interface LineCursor {
  /** The hunk (0-based) the lines are in. */
  hunk: number;
  side: 'old' | 'new';
  line: number;
  end: number;
}

/** One file's diff as shown: FileDiff's first page, each hunk's lines loaded so far, and where the next page starts. */
interface Loaded {
  diff: FileDiff;
  lines: DiffLineData[][];
  next: FileDiff['next'];
  loaded: number;
}

/** Review of one task: the file list from the summary, each file's diff on demand (small cache), and the unsent review (a draft). */
export class ReviewStore {
  tab = $state<ReviewTab>('changes');
  summary = $state.raw<DiffSummary | null>(null);
  /** Which branch summary is: the task branch's changes or its leftovers. */
  summaryOf = $state<'changes' | 'leftovers' | null>(null);
  commits = $state.raw<CommitInfo[]>([]);
  /** The observer and reviewer reports with their verdicts, newest iteration first. */
  reports = $state.raw<Report[]>([]);
  selected = $state<string | null>(null);
  /** The shown file's diff. */
  shown = $state.raw<Loaded | null>(null);
  /** Unchanged lines read for the gap before hunk i of the shown file. */
  expanded = $state.raw<ReadonlyMap<number, string[]>>(new Map());
  error = $state('');
  loadingPatch = $state(false);
  totals = $derived(this.summary?.files.reduce((a, f) => ({ add: a.add + f.additions, del: a.del + f.deletions }), { add: 0, del: 0 }) ?? { add: 0, del: 0 });
  /** The files in the tree's order (what n/p walk). */
  order = $derived(treeOrder(this.summary?.files ?? []));
  /** The shown file's hunks (all of them, lines or not). */
  hunks: DiffHunkData[] = $derived(this.shown?.diff.hunks ?? []);
  /** The hunk (0-based) j/k moved to. */
  hunk = $state(0);
  /** Lines chosen for a comment. */
  cursor = $state<LineCursor | null>(null);
  /** Comments being written, on lines, ranges or whole hunks. */
  comments = $state<DraftComment[]>([]);
  /** The comment whose editor is open. */
  editing = $state<number | null>(null);
  /** Dropped hunks, by hunkKey. */
  drops = $state<Record<string, DraftDrop>>({});
  #general = $state('');
  /** The request being built: what "Send" would send. */
  request: ChangeRequest = $derived(buildChangeRequest(this.#general, this.comments, Object.values(this.drops)));
  busy = $state(false);
  /** Unified or side by side (SettingsService.DiffView). */
  layout = $state<DiffLayout>('unified');
  /** Rows of the shown file's diff. */
  rows: Row[] = $derived(
    this.shown
      ? diffRows(
          this.hunks,
          this.shown.lines,
          this.expanded,
          this.comments.filter((c) => c.file === this.shown!.diff.path),
          this.shown.diff.lines - this.shown.loaded,
          this.shown.diff.new_total ?? 0,
        )
      : [],
  );
  /** Rows of the side-by-side view. */
  sideRows: SideRow[] = $derived(this.layout === 'split' ? sideRows(this.rows) : []);
  /** Hide whitespace-only changes in the shown diffs. */
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
  /** Files marked viewed, with the content hash they had then. */
  viewed = $state<Record<string, string>>({});
  /** Files marked viewed that changed since (Draft says so): shown unviewed, with a note. */
  changedSinceViewed = $state<string[]>([]);
  /** Where the draft is: not read yet (nothing is saved before), saved, being saved, or failed. */
  draft = $state<'loading' | 'ready' | 'saving' | 'saved' | 'failed'>('loading');
  /** The error of the last draft save, shown beside the request. */
  draftError = $state('');
  private cache = new Map<string, Loaded>();
  private seq = 0;
  private ids = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private draftLoad: Promise<void> | null = null;
  /** The user changed the review before the draft was read: merged into it, then saved. */
  private editedWhileLoading = false;
  /** Counts the changes: a save that returns after a newer change does not say "saved". */
  private generation = 0;

  constructor(
    private readonly backend: Backend,
    readonly taskId: string,
  ) {}

  /** The general comment. */
  get general(): string {
    return this.#general;
  }
  set general(v: string) {
    this.#general = v;
    this.changed();
  }

  /** Show the diff side by side (the layout is "split"). */
  get sideBySide(): boolean {
    return this.layout === 'split';
  }

  /** Switches between the task branch, its leftovers branch and the commit list. */
  async show(tab: ReviewTab): Promise<void> {
    this.tab = tab;
    this.cache.clear();
    this.shown = null;
    this.selected = null;
    // The header's stats name the task branch on Reports and Commits, not the leftovers seen last.
    if ((tab === 'reports' || tab === 'commits') && this.summaryOf === 'leftovers') void this.branchSummary();
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

  /** Reads the tab shown and the header again: the task has a new result (a fix run ended). */
  async refresh(): Promise<void> {
    if ((this.tab === 'reports' || this.tab === 'commits') && this.summaryOf !== 'leftovers') void this.branchSummary();
    await this.show(this.tab);
  }

  async load(): Promise<void> {
    const leftovers = this.tab === 'leftovers';
    this.draftLoad ??= this.loadDraft();
    const r = await run(this, () => this.backend.invoke(leftovers ? 'ReviewService.LeftoversSummary' : 'ReviewService.Summary', this.taskId), {
      fail: `Could not load the ${leftovers ? 'leftovers' : 'changes'}`,
    });
    // The user moved on to another tab meanwhile (Leftovers, then Reports at once): this summary is not the header's now.
    if ((this.tab === 'leftovers') !== leftovers) return;
    this.summary = r.ok ? { ...r.value, files: r.value.files ?? [] } : null;
    this.summaryOf = r.ok ? (leftovers ? 'leftovers' : 'changes') : null;
    await this.draftLoad;
    if (this.order.length) await this.select(this.order[0].path);
  }

  /** Loads the task branch's summary for the header while Reports or Commits shows. */
  private async branchSummary(): Promise<void> {
    const r = await run(this, () => this.backend.invoke('ReviewService.Summary', this.taskId), { fail: 'Could not load the changes' });
    if (!r.ok || (this.tab !== 'reports' && this.tab !== 'commits')) return;
    this.summary = { ...r.value, files: r.value.files ?? [] };
    this.summaryOf = 'changes';
  }

  /** Reads the remembered layout and the task's draft (once per store); nothing is saved before it is read. */
  private async loadDraft(): Promise<void> {
    const [layout, d] = await Promise.allSettled([this.backend.invoke('SettingsService.DiffView'), this.backend.invoke('ReviewService.Draft', this.taskId)]);
    if (layout.status === 'fulfilled') this.layout = layout.value === 'split' ? 'split' : 'unified';
    if (d.status === 'rejected') {
      this.draft = 'failed';
      this.draftError = `Could not read the unsent review: ${String(d.reason)}`;
      return;
    }
    const s = fromDraft(d.value, () => ++this.ids);
    // What the user did while the draft was read is kept beside it, not replaced by it.
    const typed = this.#general;
    this.#general = !typed.trim() ? s.general : s.general.trim() && s.general !== typed ? `${s.general}\n\n${typed}` : typed;
    this.comments = [...s.comments, ...this.comments];
    this.drops = { ...Object.fromEntries(s.drops.map((x) => [hunkKey(x.file, x.index), x])), ...this.drops };
    this.picks = { ...s.picks, ...this.picks };
    this.viewed = { ...s.viewed, ...this.viewed };
    this.changedSinceViewed = s.unviewed.filter((f) => !(f in this.viewed));
    this.draft = 'ready';
    if (this.editedWhileLoading) this.changed();
  }

  /** Schedules saving the draft (SAVE_DELAY_MS after the last change). */
  private changed(): void {
    if (this.draft === 'loading') {
      this.editedWhileLoading = true;
      return;
    }
    if (this.draft === 'failed' && !this.draftError.startsWith('Could not save')) return;
    clearTimeout(this.timer);
    this.generation++;
    this.draft = 'saving';
    this.timer = setTimeout(() => void this.saveDraft(), SAVE_DELAY_MS);
  }

  /** Saves a change still waiting for its debounce at once (the page is going away, another task is shown). */
  flush(): void {
    if (this.draft === 'saving') void this.saveDraft();
  }

  /** Saves the draft now (the debounce's end). */
  async saveDraft(): Promise<void> {
    clearTimeout(this.timer);
    const d = toDraft({ head: this.summary?.head ?? '', general: this.#general, comments: this.comments, drops: Object.values(this.drops), picks: this.picks, viewed: this.viewed });
    const gen = this.generation;
    try {
      await this.backend.invoke('ReviewService.SaveDraft', this.taskId, d);
      if (this.draft === 'saving' && gen === this.generation) this.draft = 'saved';
      this.draftError = '';
    } catch (e) {
      this.draft = 'failed';
      this.draftError = `Could not save the unsent review: ${String(e)}`;
    }
  }

  async select(path: string): Promise<void> {
    this.selected = path;
    const key = `${this.tab === 'leftovers' ? 'l:' : ''}${this.ignoreWhitespace ? 'w:' : ''}${path}`;
    // Every selection is a newer call: a file still loading from before does not replace this one.
    const my = ++this.seq;
    const hit = this.cache.get(key);
    if (hit) {
      this.showFile(hit);
      return;
    }
    const r = await run(
      this,
      () => this.backend.invoke('ReviewService.FileDiff', this.taskId, { path, ignore_whitespace: this.ignoreWhitespace, leftovers: this.tab === 'leftovers', from_hunk: 0, from_line: 0, max_lines: PAGE_LINES }),
      { fail: `Could not load ${path}`, flag: 'loadingPatch', current: () => my === this.seq },
    );
    if (!r.ok) return;
    const d = { ...r.value, hunks: r.value.hunks ?? [] };
    const got: Loaded = { diff: d, lines: d.hunks.map((h) => h.lines ?? []), next: d.next, loaded: 0 };
    got.loaded = got.lines.reduce((n, l) => n + l.length, 0);
    if (this.cache.size > 50) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, got);
    this.showFile(got);
  }

  private showFile(l: Loaded): void {
    this.shown = l;
    this.expanded = new Map();
    this.hunk = 0;
    this.cursor = null;
    this.editing = null;
  }

  /** Loads the next page of the shown file's lines. */
  async more(): Promise<void> {
    const cur = this.shown;
    if (!cur?.next || this.loadingPatch) return;
    const r = await run(
      this,
      () => this.backend.invoke('ReviewService.FileDiff', this.taskId, { path: cur.diff.path, ignore_whitespace: this.ignoreWhitespace, leftovers: this.tab === 'leftovers', from_hunk: cur.next!.hunk, from_line: cur.next!.line, max_lines: PAGE_LINES }),
      { fail: `Could not load more of ${cur.diff.path}`, flag: 'loadingPatch' },
    );
    if (!r.ok || this.shown !== cur) return;
    const lines = cur.lines.map((l, i) => (r.value.hunks?.[i]?.lines?.length ? [...l, ...r.value.hunks[i].lines] : l));
    const next: Loaded = { diff: cur.diff, lines, next: r.value.next, loaded: lines.reduce((n, l) => n + l.length, 0) };
    for (const [k, v] of this.cache) if (v === cur) this.cache.set(k, next);
    this.shown = next;
  }

  /** Reads the unchanged lines before hunk i of the shown file (a collapsed region clicked open). */
  async expand(i: number, newFrom: number, count: number): Promise<void> {
    const cur = this.shown;
    if (!cur) return;
    const r = await run(
      this,
      () => this.backend.invoke('ReviewService.FileLines', this.taskId, { path: cur.diff.path, side: 'new', from: newFrom, to: newFrom + count - 1, leftovers: this.tab === 'leftovers' }),
      { fail: 'Could not read the unchanged lines' },
    );
    if (!r.ok || this.shown !== cur) return;
    this.expanded = new Map([...this.expanded, [i, r.value.lines ?? []]]);
  }

  /** Turns hiding whitespace-only changes on or off and reloads the shown file. */
  async setIgnoreWhitespace(on: boolean): Promise<void> {
    this.ignoreWhitespace = on;
    if (this.selected) await this.select(this.selected);
  }

  /** Switches unified / side by side and remembers the choice. */
  async setLayout(layout: DiffLayout): Promise<void> {
    this.layout = layout;
    await run(this, () => this.backend.invoke('SettingsService.SetDiffView', layout), { fail: 'Could not remember the layout' });
  }

  /** Moves the selection by `delta` files in the tree's order (n/p). */
  step(delta: number): void {
    const files = this.order;
    if (!files.length) return;
    const i = files.findIndex((f) => f.path === this.selected);
    const next = files[Math.max(0, Math.min(files.length - 1, i + delta))];
    if (next && next.path !== this.selected) void this.select(next.path);
  }
  /** Moves the current hunk by `delta` within the shown file (j/k); returns its index. */
  stepHunk(delta: number): number | undefined {
    if (!this.hunks.length) return undefined;
    this.hunk = Math.max(0, Math.min(this.hunks.length - 1, this.hunk + delta));
    this.cursor = null;
    return this.hunk;
  }

  /** Chooses line `line` (on `side`) of hunk `hunk` (-1: an expanded unchanged line); with extend, stretches the choice to it (same hunk and side). */
  pickLine(hunk: number, side: 'old' | 'new', line: number, extend = false): void {
    const c = this.cursor;
    if (hunk >= 0) this.hunk = hunk;
    if (extend && c && c.hunk === hunk && c.side === side) this.cursor = { ...c, line: Math.min(c.line, line), end: Math.max(c.end, line) };
    else this.cursor = { hunk, side, line, end: line };
  }

  /** Whether line `line` on `side` is among the chosen lines. */
  chosen(side: 'old' | 'new', line: number): boolean {
    const c = this.cursor;
    return !!c && c.side === side && line >= c.line && line <= c.end;
  }

  /** The path of the file whose diff is shown (hunk choices are on it, even while another loads). */
  get shownPath(): string | null {
    return this.shown?.diff.path ?? null;
  }

  /**
   * Opens a new comment on the chosen lines, or on the current hunk when none
   * are chosen (c). Lines of an expanded unchanged region (hunk -1) are in no
   * hunk: the comment names the file and its new-version lines only.
   */
  startComment(hunk = this.hunk): number | undefined {
    const c = this.cursor;
    const h = c?.hunk === -1 ? { index: 0, header: '' } : this.hunks[c?.hunk ?? hunk];
    if (!h || !this.shownPath) return undefined;
    const id = ++this.ids;
    const line = c ? c.line : 0;
    this.comments.push({ id, file: this.shownPath, index: h.index, header: h.header, side: c?.side ?? 'new', line, end_line: c && c.end > c.line ? c.end : undefined, text: '' });
    this.editing = id;
    this.cursor = null;
    this.changed();
    return id;
  }

  /** Sets the text of comment `id`. */
  setText(id: number, text: string): void {
    const c = this.comments.find((x) => x.id === id);
    if (!c) return;
    c.text = text;
    this.changed();
  }

  /** Closes the editor; an empty comment goes away. */
  closeEditor(): void {
    const c = this.comments.find((x) => x.id === this.editing);
    this.editing = null;
    if (c && !c.text.trim()) this.removeComment(c.id);
  }

  /** Removes comment `id`. */
  removeComment(id: number): void {
    this.comments = this.comments.filter((c) => c.id !== id);
    if (this.editing === id) this.editing = null;
    this.changed();
  }

  /** Whether hunk `h` (0-based) of the shown file is dropped. */
  dropped(h: number): boolean {
    const x = this.hunks[h];
    return !!x && !!this.shownPath && !!this.drops[hunkKey(this.shownPath, x.index)];
  }

  /** Marks or unmarks hunk `h` (0-based) of the shown file to be dropped. */
  toggleDrop(h: number): void {
    const x = this.hunks[h];
    if (!x || !this.shownPath) return;
    const key = hunkKey(this.shownPath, x.index);
    const next = { ...this.drops };
    if (next[key]) delete next[key];
    else next[key] = { file: this.shownPath, index: x.index, header: x.header };
    this.drops = next;
    this.changed();
  }

  /** Un-drops a hunk by its key (the request's list). */
  undrop(key: string): void {
    const next = { ...this.drops };
    delete next[key];
    this.drops = next;
    this.changed();
  }

  /** Chooses or un-chooses a whole file for a hunk-level accept. */
  pickFile(path: string): void {
    const next = { ...this.picks };
    if (next[path] === true) delete next[path];
    else next[path] = true;
    this.picks = next;
    this.changed();
  }

  /** Whether the whole file, or (with a hunk, 0-based) that hunk of the shown file, is chosen. */
  picked(path: string, h?: number): boolean {
    const p = this.picks[path];
    if (p === undefined) return false;
    if (p === true) return true;
    return h !== undefined ? p.includes(this.hunks[h]?.index ?? -1) : false;
  }

  /** Chooses or un-chooses one hunk (0-based) of the shown file (a); a whole-file choice becomes every hunk but this one. */
  pickHunk(h: number): void {
    const path = this.shownPath;
    const x = this.hunks[h];
    if (!path || !x) return;
    const cur = this.picks[path];
    const all = this.hunks.map((y) => y.index);
    let set = cur === true ? all : [...(cur ?? [])];
    set = set.includes(x.index) ? set.filter((n) => n !== x.index) : [...set, x.index];
    const next = { ...this.picks };
    if (!set.length) delete next[path];
    else next[path] = set.length === all.length ? true : set;
    this.picks = next;
    this.changed();
  }

  /** Whether a file is marked viewed (a mark on other content than the file's now does not count). */
  isViewed(path: string): boolean {
    const hash = this.viewed[path];
    if (hash === undefined) return false;
    const f = this.summary?.files.find((x) => x.path === path);
    return !f?.hash || f.hash === hash;
  }

  /** Marks or unmarks a file viewed (v), tied to its content now. */
  toggleViewed(path = this.selected): void {
    if (!path) return;
    const next = { ...this.viewed };
    if (this.isViewed(path)) delete next[path];
    else next[path] = this.summary?.files.find((x) => x.path === path)?.hash ?? '';
    this.viewed = next;
    this.changedSinceViewed = this.changedSinceViewed.filter((p) => p !== path);
    this.changed();
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
    this.forgetDraft();
    this.notice = `Fix run ${r.value.fix} queued: the developer gets ${countOr(req.comments.length, 'comment', 'no comments')}${req.general ? ' and your general comment' : ''}${req.drops.length ? `, after ${count(req.drops.length, 'dropped hunk')} ${plural('is', req.drops.length)} reverted` : ''}.`;
    return true;
  }

  /**
   * Forgets the unsent review the screen holds (comments, drops, hunk
   * choices, viewed marks): it was sent or the task accepted, and Go deleted
   * the stored draft, so nothing of it is shown or saved again.
   */
  forgetDraft(): void {
    clearTimeout(this.timer);
    this.comments = [];
    this.drops = {};
    this.#general = '';
    this.editing = null;
    this.cursor = null;
    this.picks = {};
    this.viewed = {};
    this.changedSinceViewed = [];
    this.editedWhileLoading = false;
    if (this.draft !== 'failed') this.draft = 'ready';
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


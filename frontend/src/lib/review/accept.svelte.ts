import type { Backend } from '../backend/backend';
import { run } from '../busy';
import type { AcceptInput, AcceptPlan, AcceptRecord, AcceptSelection, AcceptStrategy } from '../backend/review-api';
import { count } from '../words/words';

/** Short branch name of a ref ("refs/heads/main" → "main"). */
export const branchName = (ref: string): string => ref.replace(/^refs\/heads\//, '');

/** What the dry run says the accept makes, in a sentence without its target ("One squash commit of the chosen changes"). */
export function makesSentence(p: AcceptPlan): string {
  const m = p.makes;
  const commits = p.commits.length;
  if (!m) return `${count(commits, 'commit')} not yet on the target`;
  const files = m.files?.length ? ` (${count(m.files.length, 'file')}, +${m.additions.toLocaleString()} −${m.deletions.toLocaleString()})` : '';
  switch (m.kind) {
    case 'squash_commit':
      return (m.subset ? 'One squash commit of the chosen changes' : `One squash commit of the task's ${count(commits, 'commit')}`) + files;
    case 'merge_commit':
      return `A merge commit bringing the task's ${count(commits, 'commit')}` + files;
    case 'rebase':
      return `The task's ${count(m.commits, 'commit')} replayed` + files;
    case 'fast_forward':
      return `A fast-forward to the task's head (${count(m.commits, 'commit')}, no new commit)` + files;
    default:
      return `${count(m.commits, 'commit')}` + files;
  }
}

/**
 * The accept dialog: a dry run (PlanAccept) on open and after every change,
 * then Accept guarded by the target commit the dry run saw, then Undo.
 */
export class AcceptStore {
  target = $state('');
  strategy = $state<AcceptStrategy>('merge');
  message = $state('');
  /** The message an empty one stands for (Go's AcceptMessage for the strategy), the field's placeholder. */
  placeholder = $state('');
  includeLeftovers = $state(false);
  plan = $state.raw<AcceptPlan | null>(null);
  planning = $state(false);
  result = $state.raw<AcceptRecord | null>(null);
  undone = $state(false);
  busy = $state(false);
  error = $state('');
  /** Why Accept is disabled ("" when it is enabled). */
  blocked = $derived.by(() => {
    const p = this.plan;
    if (this.planning || this.busy) return 'Checking…';
    if (!p) return this.error || 'No dry run yet.';
    if (p.conflicts?.length) return 'The merge would conflict.';
    if (p.dirty?.length) return 'The checked-out target has uncommitted changes.';
    if (!p.commits.length) return 'Nothing to accept.';
    return '';
  });
  private seq = 0;

  /**
   * only, when not empty, makes a hunk-level accept of the chosen files and
   * hunks (one squash commit); expectHead is the task branch commit they
   * were chosen on.
   */
  constructor(
    private readonly backend: Backend,
    readonly taskId: string,
    readonly only: AcceptSelection[] = [],
    readonly expectHead = '',
  ) {
    if (only.length) this.strategy = 'squash';
  }

  private input(expect = ''): AcceptInput {
    const base = { target: this.target.trim(), strategy: this.strategy, message: this.strategy === 'rebase' ? '' : this.message, include_leftovers: this.includeLeftovers, expect_target: expect };
    return this.only.length ? { ...base, strategy: 'squash', include_leftovers: false, only: this.only, expect_head: this.expectHead } : base;
  }

  /** Asks Go which message an empty field writes for the strategy (the placeholder); the generic hint stays on failure. */
  async loadPlaceholder(): Promise<void> {
    const strategy = this.only.length ? 'squash' : this.strategy;
    if (strategy === 'rebase') return;
    try {
      const msg = await this.backend.invoke('ReviewService.AcceptMessage', this.taskId, strategy);
      if (strategy === (this.only.length ? 'squash' : this.strategy)) this.placeholder = msg ?? '';
    } catch {
      this.placeholder = '';
    }
  }

  /** Runs the dry run for the current choices; a slower older answer never overwrites a newer one. */
  async refresh(): Promise<void> {
    const my = ++this.seq;
    const r = await run(this, () => this.backend.invoke('ReviewService.PlanAccept', this.taskId, this.input()), { flag: 'planning', current: () => my === this.seq });
    if (my !== this.seq) return;
    this.plan = r.ok ? r.value : null;
    if (r.ok && !this.target) this.target = branchName(r.value.target_ref);
  }

  /** Accepts what the dry run showed; on refusal shows why and runs the dry run again. */
  async accept(): Promise<boolean> {
    if (this.blocked || !this.plan) return false;
    const r = await run(this, () => this.backend.invoke('ReviewService.Accept', this.taskId, this.input(this.plan!.target_sha)), { flag: 'busy' });
    if (r.ok) {
      this.result = r.value;
      this.undone = false;
      return true;
    }
    // Show why, with the fresh dry run under it (e.g. the target moved on).
    await this.refresh();
    this.error = r.error;
    return false;
  }

  /** Undoes the accept just made; true when the target is back at its old commit. */
  async undo(): Promise<boolean> {
    if (!this.result) return false;
    const r = await run(this, () => this.backend.invoke('ReviewService.UndoAccept', this.taskId), { flag: 'busy' });
    if (r.ok) this.undone = true;
    return r.ok;
  }

  /**
   * Sends the task back to the developer to merge the target into its branch
   * and resolve the conflicts the dry run found; it then goes through review again.
   */
  async resolveWithAgent(): Promise<boolean> {
    const p = this.plan;
    if (!p?.conflicts?.length) return false;
    const target = branchName(p.target_ref);
    const general = `Accepting into ${target} conflicts in: ${p.conflicts.join(', ')}. Merge ${target} (at ${p.target_sha}) into your branch, resolve these conflicts keeping both sides' intent, and make sure the tests pass.`;
    const r = await run(this, () => this.backend.invoke('ReviewService.RequestChanges', this.taskId, { general, comments: [], drops: [] }), { flag: 'busy' });
    return r.ok;
  }
}

import type { Backend } from '../backend/backend';
import { errorMessage } from '../backend/backend';
import type { AcceptInput, AcceptPlan, AcceptRecord, AcceptStrategy } from '../backend/review-api';

/** Short branch name of a ref ("refs/heads/main" → "main"). */
export const branchName = (ref: string): string => ref.replace(/^refs\/heads\//, '');

/**
 * The accept dialog: a dry run (PlanAccept) on open and after every change,
 * then Accept guarded by the target commit the dry run saw, then Undo.
 */
export class AcceptStore {
  target = $state('');
  strategy = $state<AcceptStrategy>('merge');
  message = $state('');
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

  constructor(
    private readonly backend: Backend,
    readonly taskId: string,
  ) {}

  private input(expect = ''): AcceptInput {
    return { target: this.target.trim(), strategy: this.strategy, message: this.strategy === 'rebase' ? '' : this.message, include_leftovers: this.includeLeftovers, expect_target: expect };
  }

  /** Runs the dry run for the current choices; a slower older answer never overwrites a newer one. */
  async refresh(): Promise<void> {
    const my = ++this.seq;
    this.planning = true;
    try {
      const p = await this.backend.invoke('ReviewService.PlanAccept', this.taskId, this.input());
      if (my !== this.seq) return;
      this.plan = p;
      if (!this.target) this.target = branchName(p.target_ref);
      this.error = '';
    } catch (e) {
      if (my !== this.seq) return;
      this.plan = null;
      this.error = errorMessage(e);
    } finally {
      if (my === this.seq) this.planning = false;
    }
  }

  /** Accepts what the dry run showed; on refusal shows why and runs the dry run again. */
  async accept(): Promise<boolean> {
    if (this.blocked || !this.plan) return false;
    this.busy = true;
    try {
      this.result = await this.backend.invoke('ReviewService.Accept', this.taskId, this.input(this.plan.target_sha));
      this.undone = false;
      this.error = '';
      return true;
    } catch (e) {
      // Show why, with the fresh dry run under it (e.g. the target moved on).
      const why = errorMessage(e);
      this.busy = false;
      await this.refresh();
      this.error = why;
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** Undoes the accept just made; true when the target is back at its old commit. */
  async undo(): Promise<boolean> {
    if (!this.result || this.busy) return false;
    this.busy = true;
    try {
      await this.backend.invoke('ReviewService.UndoAccept', this.taskId);
      this.undone = true;
      this.error = '';
      return true;
    } catch (e) {
      this.error = errorMessage(e);
      return false;
    } finally {
      this.busy = false;
    }
  }

  /**
   * Sends the task back to the developer to merge the target into its branch
   * and resolve the conflicts the dry run found; it then goes through review again.
   */
  async resolveWithAgent(): Promise<boolean> {
    const p = this.plan;
    if (!p?.conflicts?.length || this.busy) return false;
    const target = branchName(p.target_ref);
    this.busy = true;
    try {
      await this.backend.invoke('ReviewService.RequestChanges', this.taskId, {
        general: `Accepting into ${target} conflicts in: ${p.conflicts.join(', ')}. Merge ${target} (at ${p.target_sha}) into your branch, resolve these conflicts keeping both sides' intent, and make sure the tests pass.`,
        comments: [],
        drops: [],
      });
      this.error = '';
      return true;
    } catch (e) {
      this.error = errorMessage(e);
      return false;
    } finally {
      this.busy = false;
    }
  }
}

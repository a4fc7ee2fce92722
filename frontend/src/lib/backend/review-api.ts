// ReviewService: a task's diff, its accept (whole or hunks), undo, reject and
// change requests (Go: app/review.go).
import type { CommitInfo, DiffSummary, FilePatch } from './types';
import type { app, review } from '../../../wailsjs/go/models';
import type { Data } from './generated';

/** One file's diff as rows with line numbers (Go: app.FileDiff; issue 40). */
export type FileDiff = Data<app.FileDiff>;
export type FileDiffRequest = Data<app.FileDiffRequest>;
/** Lines of one side of a file, to expand context (Go: app.FileLines). */
export type FileLines = Data<app.FileLines>;
export type FileLinesRequest = Data<app.FileLinesRequest>;
/** Unsent review work of a task, kept across reloads and restarts (Go: review.Draft). */
export type ReviewDraft = Data<review.Draft>;

export type AcceptStrategy = 'merge' | 'squash' | 'rebase';

/** What the accept dialog sends to PlanAccept and Accept. */
export interface AcceptInput {
  /** Target branch; "" = the default (the task's base branch or the branch checked out in the repo). */
  target: string;
  strategy: AcceptStrategy;
  /** Commit message for merge and squash ("" = the task's). */
  message: string;
  include_leftovers: boolean;
  /** The target commit the dry run showed; Accept refuses when the target moved. */
  expect_target: string;
  /** A hunk-level accept: only these files and hunks, as one squash commit. */
  only?: AcceptSelection[];
  /** The task branch commit the chosen hunks were numbered on; Accept refuses when it moved. */
  expect_head?: string;
}

/** One file of a hunk-level accept: hunks are 1-based; none = the whole file. */
export interface AcceptSelection {
  file: string;
  hunks?: number[];
}

/** The dry run of an accept. Conflicts and dirty files come back in the plan, not as errors. */
export interface AcceptPlan {
  strategy: AcceptStrategy;
  target_ref: string;
  target_sha: string;
  task_ref: string;
  task_head: string;
  leftovers?: string;
  head: string;
  /** Commits not yet on the target, oldest first. */
  commits: string[];
  tree?: string;
  fast_forward: boolean;
  /** Directory where the target is checked out; absent when it is checked out nowhere. */
  checkout?: string;
  dirty?: string[];
  conflicts?: string[];
  /** What the accept would put on the target (filled when nothing conflicts). */
  makes?: AcceptOutcome;
}

/** What an accept makes: one squash or merge commit, a rebase or a fast-forward (Go: review.Outcome). */
export type AcceptOutcome = Data<review.Outcome>;

/** What an accept did. */
export interface AcceptRecord {
  strategy: AcceptStrategy;
  target: string;
  old_sha: string;
  new_sha: string;
  task_head: string;
  leftovers?: string;
  checkout?: string;
  at: string;
  /** What a hunk-level accept took (hunks 1-based, with their @@ lines); absent for the whole branch. */
  only?: { file: string; hunks?: number[]; headers?: string[] }[];
}

/** A remark on lines of a hunk (line = the first, end_line the last of a range; 0 = the whole hunk or file). */
export interface ReviewComment {
  file: string;
  line: number;
  /** The last line of a range starting at line (same version). */
  end_line?: number;
  /** Which version line numbers: "new" (default) or "old" (removed lines). */
  side?: string;
  hunk: string;
  text: string;
  /** The hunk's number among the file's hunks and its "@@" line, filled in by the backend. */
  index?: number;
  header?: string;
}

/** A hunk the user drops: reverted in a "Drop hunk" commit before the fix run's developer runs. */
export interface ReviewDrop {
  file: string;
  hunk: string;
  index?: number;
  header?: string;
}

export interface ChangeRequest {
  general: string;
  comments: ReviewComment[];
  drops: ReviewDrop[];
}

/** A queued fix run (ReviewService.RequestChanges): its request id, its number on the task, and the review its agents read. */
export interface QueuedFix {
  request: number;
  fix: number;
  body: string;
}

/** A task branch that a reject may delete, with the commits only it holds. */
export interface TaskBranch {
  name: string;
  sha: string;
  unique: number;
  worktree?: string;
}

/** Which patch of a file FilePatchWith returns. */
export interface PatchRequest {
  force: boolean;
  /** Hide whitespace-only changes (git diff -w). */
  ignore_whitespace: boolean;
  leftovers: boolean;
}

export interface ReviewApi {
  'ReviewService.Summary': (taskId: string) => Promise<DiffSummary>;
  'ReviewService.FilePatch': (taskId: string, path: string, force: boolean) => Promise<FilePatch>;
  'ReviewService.LeftoversSummary': (taskId: string) => Promise<DiffSummary>;
  'ReviewService.LeftoversFilePatch': (taskId: string, path: string, force: boolean) => Promise<FilePatch>;
  'ReviewService.Commits': (taskId: string, leftovers: boolean) => Promise<CommitInfo[]>;
  'ReviewService.PlanAccept': (taskId: string, input: AcceptInput) => Promise<AcceptPlan>;
  'ReviewService.Accept': (taskId: string, input: AcceptInput) => Promise<AcceptRecord>;
  'ReviewService.UndoAccept': (taskId: string) => Promise<void>;
  'ReviewService.Reject': (taskId: string) => Promise<void>;
  'ReviewService.RequestChanges': (taskId: string, request: ChangeRequest) => Promise<QueuedFix>;
  'ReviewService.FilePatchWith': (taskId: string, path: string, opts: PatchRequest) => Promise<FilePatch>;
  'ReviewService.TaskBranches': (taskId: string) => Promise<TaskBranch[]>;
  'ReviewService.RejectDeletingBranches': (taskId: string, confirm: TaskBranch[]) => Promise<{ deleted: TaskBranch[]; at: string }>;
  /** The message an accept with strategy writes when the dialog's is empty (its placeholder). */
  'ReviewService.AcceptMessage': (taskId: string, strategy: AcceptStrategy) => Promise<string>;
  'ReviewService.FileDiff': (taskId: string, req: FileDiffRequest) => Promise<FileDiff>;
  'ReviewService.FileLines': (taskId: string, req: FileLinesRequest) => Promise<FileLines>;
  'ReviewService.Draft': (taskId: string) => Promise<ReviewDraft>;
  'ReviewService.SaveDraft': (taskId: string, draft: ReviewDraft) => Promise<ReviewDraft>;
  'ReviewService.ClearDraft': (taskId: string) => Promise<void>;
}

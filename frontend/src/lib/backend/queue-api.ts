// MergeQueueService and VerifyService (issue 19): the merge queue and each
// repository's verify command (Go: app/mergequeue.go, app/verify.go).
import type { AcceptStrategy } from './review-api';
import type { QueueState } from './types';

/** One merge queue entry as the window shows it. */
export interface QueueItem {
  id: number;
  task_id: string;
  /** The task's title ("" when the task is gone). */
  title: string;
  repo: string;
  target: string;
  strategy: AcceptStrategy;
  state: QueueState;
  /** Why the entry is blocked or waiting. */
  reason: string;
  /** The conflicting files of a blocked landing. */
  files: string[];
  /** The end of a red verify's output. */
  output: string;
  /** The target's commit after the entry landed. */
  landed: string;
  verified: boolean;
  attempts: number;
  updated_at: string;
}

/** "Add to merge queue": target "" = the task's base branch (else the branch checked out); strategy "" = merge. */
export interface QueueAddInput {
  target: string;
  strategy: AcceptStrategy | '';
}

/** A verify command a repository's files point to; shown, never applied unless the user clicks it. */
export interface VerifySuggestion {
  command: string;
  /** The file that suggests it ("go.mod"). */
  because: string;
}

/** A repository's own verify command. */
export interface RepoVerify {
  /** The repository's top-level folder. */
  path: string;
  /** "" = none (the global verify.command applies). */
  command: string;
  /** False when the folder is no longer there. */
  exists: boolean;
  suggestions: VerifySuggestion[];
}

export interface QueueApi {
  'MergeQueueService.List': (history: boolean) => Promise<QueueItem[]>;
  'MergeQueueService.Add': (taskId: string, input: QueueAddInput) => Promise<QueueItem>;
  'MergeQueueService.Remove': (taskId: string) => Promise<boolean>;
  'MergeQueueService.Move': (taskId: string, to: number) => Promise<QueueItem[]>;
  'MergeQueueService.SendBack': (taskId: string) => Promise<QueueItem>;
  'MergeQueueService.Count': () => Promise<number>;
  'VerifyService.Get': (repo: string) => Promise<RepoVerify>;
  'VerifyService.Set': (repo: string, command: string) => Promise<RepoVerify>;
  'VerifyService.Unset': (repo: string) => Promise<RepoVerify>;
  'VerifyService.Repos': () => Promise<RepoVerify[]>;
}

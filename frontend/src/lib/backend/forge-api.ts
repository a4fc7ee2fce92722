// ForgeService (issue 41): a task's pushed branch and pull request (a merge
// request on GitLab), tasks made from issues, forge tokens (Go: app/forge.go).
// The shapes are the generated models' (wailsjs/go/models.ts) with Go's
// string enums narrowed to the values app/forge.go documents.
import type { app, task } from '../../../wailsjs/go/models';
import type { Data } from './generated';


/** "" = never opened (or only pushed); "gone" = deleted on its forge. */
export type PullRequestState = 'open' | 'draft' | 'merged' | 'closed' | 'gone' | '';
export type ReviewDecision = 'approved' | 'changes_requested' | 'review_required' | '';
export type CheckState = 'pending' | 'success' | 'failure' | 'neutral';
/** "" = a remote on no forge Boof Runner knows: it can be pushed to, no pull request opened there. */
export type ForgeKind = 'github' | 'gitlab' | '';
/** What a push did; "up-to-date" sent nothing. */
export type PushKind = 'new' | 'fast-forward' | 'forced' | 'up-to-date';

/** One CI check (or commit status) of the pull request's head. */
export type PullRequestCheck = Omit<Data<app.CheckView>, 'state'> & { state: CheckState };
export type IssueView = Data<app.IssueView>;
export type RemoteView = Data<app.RemoteView>;

/** A task's pull request as last synced; `pushed` false: never pushed (the rest empty). */
export type PullRequestView = Omit<Data<app.PullRequestView>, 'state' | 'review' | 'forge' | 'checks'> & {
  state: PullRequestState;
  review: ReviewDecision;
  forge: ForgeKind;
  checks: PullRequestCheck[];
};

/** Where a push goes ("" = as before, else the settings, else the upstream remote). */
export type PushInput = Data<app.PushInput>;
export type PushResult = Omit<Data<app.PushResult>, 'pull_request' | 'kind'> & { pull_request: PullRequestView; kind: PushKind };
/** The Open pull request dialog; draft absent and empty lists take the settings. */
export type OpenInput = Data<app.OpenInput>;
export type OpenResult = Omit<Data<app.OpenResult>, 'pull_request'> & { pull_request: PullRequestView };
export type SyncResult = Omit<Data<app.SyncResult>, 'pull_request' | 'pushed'> & { pull_request: PullRequestView; pushed: PushKind | '' };
export type FixResult = Data<app.FixResult>;
/** The New task form with an issue's address; a title or labels set win over the issue's. */
export type IssueTaskInput = Data<app.IssueTaskInput>;
/** The task made from an issue (the fields the form reads). */
export type IssueTask = Pick<Data<task.Task>, 'id' | 'title' | 'prompt' | 'labels'>;
export type TokenResult = Omit<Data<app.TokenResult>, 'kind'> & { kind: 'keyring' | 'file' };

export interface ForgeApi {
  'ForgeService.PullRequest': (taskId: string) => Promise<PullRequestView>;
  'ForgeService.Remotes': (taskId: string) => Promise<RemoteView[]>;
  'ForgeService.Push': (taskId: string, input: PushInput) => Promise<PushResult>;
  'ForgeService.Open': (taskId: string, input: OpenInput) => Promise<OpenResult>;
  'ForgeService.Sync': (taskId: string) => Promise<SyncResult>;
  'ForgeService.RequestChanges': (taskId: string) => Promise<FixResult>;
  'ForgeService.Close': (taskId: string, deleteBranch: boolean) => Promise<PullRequestView>;
  'ForgeService.CreateFromIssue': (input: IssueTaskInput) => Promise<IssueTask>;
  'ForgeService.SetToken': (host: string, token: string) => Promise<TokenResult>;
  'ForgeService.ForgetToken': (host: string) => Promise<void>;
  'ForgeService.ReviewRequests': () => Promise<number>;
}

// SetupService (issue 40): the first run — what is missing before a task can
// run and the one click that fixes each — and the New task form's choice of
// repository (Go: app/setup.go, backend/setup). The shapes are the generated
// models' (wailsjs/go/models.ts) with Go's string enums narrowed to the
// values backend/setup documents.
import type { app, setup } from '../../../wailsjs/go/models';
import type { Data } from './generated';
import type { ToolHealth } from './types';

/** What is missing. */
export type ProblemKind = 'no_agent_cli' | 'not_signed_in' | 'no_repository' | 'repository_unusable';
/** The one click that fixes a problem: copy Commands to a terminal, or choose a repository. */
export type ProblemAction = 'install' | 'sign_in' | 'choose_repository';
export type SetupProblem = Omit<Data<setup.Problem>, 'kind' | 'action'> & { kind: ProblemKind; action: ProblemAction };
/** What the first-launch screen shows; `ready`: nothing is missing. */
export type SetupStatus = Omit<Data<app.SetupStatus>, 'problems' | 'tools'> & { problems: SetupProblem[]; tools: ToolHealth[] };
/** A folder checked as a repository; path "" = the picker was cancelled. */
export type RepoCheck = Data<setup.RepoCheck>;
/** A repository the New task form offers (the working directory first, then by last use). */
export type RecentRepository = Omit<Data<app.RecentRepository>, 'last_used'> & { last_used?: string };

export interface SetupApi {
  'SetupService.Status': () => Promise<SetupStatus>;
  /** Whether the first-launch screen was dismissed (settings ui.setupDismissed); checks no tool. */
  'SetupService.Dismissed': () => Promise<boolean>;
  'SetupService.Dismiss': () => Promise<void>;
  'SetupService.RecentRepositories': () => Promise<RecentRepository[]>;
  'SetupService.PickRepository': () => Promise<RepoCheck>;
  'SetupService.CheckRepository': (path: string) => Promise<RepoCheck>;
  'SetupService.UseRepository': (path: string) => Promise<RepoCheck>;
}

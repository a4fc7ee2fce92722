import type { Backend } from '../backend/backend';
import { run } from '../busy';
import { capital, count } from '../words/words';
import { EVENT_NAMES } from '../backend/types';
import type { OpenInput, PullRequestView, PushKind, RemoteView } from '../backend/forge-api';

/** What a push did, in a sentence (the notice after Push). */
export function pushedSentence(kind: PushKind, pr: PullRequestView): string {
  const where = `${pr.remote}/${pr.branch}`;
  switch (kind) {
    case 'up-to-date':
      return `${where} already has the task's commits: nothing sent.`;
    case 'new':
      return `Pushed the task's branch to ${where}.`;
    case 'forced':
      return `Pushed to ${where}, replacing the task's earlier push (no one else's commits were there).`;
    default:
      return `Pushed the new commits to ${where}.`;
  }
}

/** What a forge calls a request to merge: "merge request" on GitLab, "pull request" elsewhere. */
export function requestWord(forge: string | undefined): string {
  return forge === 'gitlab' ? 'merge request' : 'pull request';
}

/** The pull request as its forge names it: "merge request !3" on GitLab, "pull request #3" elsewhere. */
export function prName(pr: Pick<PullRequestView, 'forge' | 'number'>): string {
  return `${requestWord(pr.forge)} ${pr.forge === 'gitlab' ? '!' : '#'}${pr.number}`;
}

/**
 * The forge a request would be opened on: the task's pushed one, else the chosen remote's, else
 * (no remote chosen) the one all remotes share; "" when it cannot be told.
 */
export function forgeOf(pr: Pick<PullRequestView, 'forge'> | null, remotes: RemoteView[], chosen = ''): string {
  if (pr?.forge) return pr.forge;
  if (chosen) return remotes.find((r) => r.name === chosen)?.forge ?? '';
  const kinds = new Set(remotes.map((r) => r.forge));
  return kinds.size === 1 ? [...kinds][0] : '';
}

/** A task's pushed branch and pull request on the Review screen; it follows pr:changed:<id>. */
export class PullRequestStore {
  /** null until the first load answers. */
  pr = $state.raw<PullRequestView | null>(null);
  remotes = $state.raw<RemoteView[]>([]);
  /** Go's sentence for the last refusal ("" when none). */
  error = $state('');
  busy = $state(false);
  /** What the last action did. */
  notice = $state('');
  /** An open (or draft) pull request: it can be synced, pulled from and closed. */
  live = $derived(this.pr?.state === 'open' || this.pr?.state === 'draft');
  /** "merge request" or "pull request", as the task's forge says it. */
  word = $derived(requestWord(forgeOf(this.pr, this.remotes)));
  /** Where start's quiet remotes load puts its error (the dialog's load shows its own). */
  quiet = $state('');
  private seq = 0;

  constructor(
    private readonly backend: Backend,
    readonly taskId: string,
  ) {}

  /** Loads and follows the task's pull request; returns the unsubscribe function. */
  start(): () => void {
    void this.load();
    void run(this, () => this.backend.invoke('ForgeService.Remotes', this.taskId), { into: 'quiet' }).then((r) => {
      if (r.ok && !this.remotes.length) this.remotes = r.value ?? [];
    });
    return this.backend.listen(`${EVENT_NAMES.pullRequestChanged}${this.taskId}`, () => void this.load());
  }

  async load(): Promise<void> {
    const my = ++this.seq;
    const r = await run(this, () => this.backend.invoke('ForgeService.PullRequest', this.taskId), { current: () => my === this.seq });
    if (r.ok) this.pr = r.value;
  }

  /** The remotes of the task's repository (the Open pull request dialog). */
  async loadRemotes(): Promise<void> {
    const r = await run(this, () => this.backend.invoke('ForgeService.Remotes', this.taskId));
    if (r.ok) this.remotes = r.value ?? [];
  }

  private set(pr: PullRequestView): void {
    this.seq++; // a load that started before this answer must not overwrite it
    this.pr = pr;
  }

  async push(): Promise<boolean> {
    this.notice = '';
    const r = await run(this, () => this.backend.invoke('ForgeService.Push', this.taskId, { remote: '', branch: '' }), { flag: 'busy' });
    if (!r.ok) return false;
    this.set(r.value.pull_request);
    this.notice = pushedSentence(r.value.kind, r.value.pull_request);
    return true;
  }

  async open(input: OpenInput): Promise<boolean> {
    this.notice = '';
    const r = await run(this, () => this.backend.invoke('ForgeService.Open', this.taskId, input), { flag: 'busy' });
    if (!r.ok) return false;
    const pr = r.value.pull_request;
    this.set(pr);
    const name = prName(pr);
    const said = r.value.existing ? `${capital(name)} was open already: no second one was opened.` : `Opened ${name}.`;
    this.notice = r.value.problem ? `${said} ${r.value.problem}` : said;
    return true;
  }

  /** Refresh: reads the forge now. */
  async sync(): Promise<void> {
    this.notice = '';
    const r = await run(this, () => this.backend.invoke('ForgeService.Sync', this.taskId), { flag: 'busy' });
    if (!r.ok) return;
    this.set(r.value.pull_request);
    const said: string[] = [];
    if (r.value.accepted) said.push('Merged on its forge: the task is accepted.');
    if (r.value.renamed) said.push(`The forge renamed the branch ${r.value.renamed} to ${r.value.pull_request.branch}.`);
    if (r.value.pushed) said.push(pushedSentence(r.value.pushed, r.value.pull_request));
    this.notice = said.join(' ');
  }

  /** Pulls the review's comments into a fix run. */
  async requestChanges(): Promise<void> {
    this.notice = '';
    const r = await run(this, () => this.backend.invoke('ForgeService.RequestChanges', this.taskId), { flag: 'busy' });
    if (!r.ok) return;
    const n = r.value.comments;
    this.notice = `Fix run ${r.value.fix} queued with ${count(n, 'review comment')}; its commits go to the same ${this.word}.`;
  }

  async close(deleteBranch: boolean): Promise<void> {
    this.notice = '';
    const r = await run(this, () => this.backend.invoke('ForgeService.Close', this.taskId, deleteBranch), { flag: 'busy' });
    if (!r.ok) return;
    this.set(r.value);
    this.notice = `Closed ${prName(r.value)}.`;
  }
}

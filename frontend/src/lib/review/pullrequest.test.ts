import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import ReviewScreen from './ReviewScreen.svelte';
import { StubBackend } from '../backend/stub';
import { pullRequest, taskView } from '../backend/stub-data';
import type { PullRequestView } from '../backend/forge-api';

const done = taskView({ id: 'T1', title: 'Fix the login form', status: 'done', branch: 'boof-runner/T1' });

// Go's sentences (backend/usererr/forge.go; no golden holds the forge's yet).
const STALE = 'Nothing pushed: someone pushed to boof-runner/fix-the-login-form-T1 on origin meanwhile, and their commits are kept; look at them, or push under another name with --branch.';
const NO_REMOTE = "Nothing pushed: the repository /home/me/app has no remote; add one with 'git remote add origin URL'.";

const pushed = (over: Partial<PullRequestView> = {}) =>
  pullRequest(done.id, { pushed: true, remote: 'origin', branch: 'boof-runner/fix-the-login-form-T1', pushed_sha: 'abc1234def', forge: 'github', host: 'github.com', project: 'me/app', ...over });
const opened = (over: Partial<PullRequestView> = {}) =>
  pushed({ number: 7, url: 'https://github.com/me/app/pull/7', state: 'open', review: 'review_required', checks: [{ name: 'ci / test', state: 'pending', url: '' }], synced_at: '2026-12-05T10:00:00Z', ...over });

/** The Review screen on a done task whose pull request Go holds in `state.pr`. */
function setup(pr: PullRequestView = pullRequest(done.id)) {
  const state = { pr };
  const b = new StubBackend({
    'ReviewService.Summary': (id) => ({ task_id: id, base: 'main', head: 'feedc0de', files: [] }),
    'MergeQueueService.List': () => [],
    'ForgeService.PullRequest': () => state.pr,
  });
  render(ReviewScreen, { backend: b, tasks: [done], taskId: done.id, onpick: () => {} });
  return { b, state };
}

const panel = () => screen.getByRole('region', { name: 'Pull request' });

describe('Review screen: push and pull request', () => {
  it('pushes a task never pushed, then shows where it went; Go refusing a push is shown as Go words it', async () => {
    const { b, state } = setup();
    const push = await screen.findByRole('button', { name: 'Push' });
    await waitFor(() => expect(b.count('ForgeService.PullRequest')).toBe(1));
    expect(screen.queryByRole('region', { name: 'Pull request' })).toBeNull();

    b.on('ForgeService.Push', () => ((state.pr = pushed()), { pull_request: state.pr, kind: 'new' }));
    await fireEvent.click(push);
    expect(await screen.findByText("Pushed the task's branch to origin/boof-runner/fix-the-login-form-T1.")).toBeTruthy();
    expect(b.argsOf('ForgeService.Push')).toEqual([[done.id, { remote: '', branch: '' }]]);
    expect(within(panel()).getByText('Pushed')).toBeTruthy();
    expect(within(panel()).getByText('no pull request opened')).toBeTruthy();

    b.failNext('ForgeService.Push', STALE);
    await fireEvent.click(push);
    expect((await screen.findByRole('alert')).textContent).toBe(STALE);
    expect(within(panel()).getByText('Pushed')).toBeTruthy();
  });

  it('opens a pull request from the dialog (remote from Remotes, draft, labels, reviewers) and shows its state, checks and review', async () => {
    const { b, state } = setup();
    b.on('ForgeService.Remotes', () => [
      { name: 'origin', url: 'https://github.com/me/app.git', forge: 'github' },
      { name: 'fork', url: 'git@github.com:you/app.git', forge: 'github' },
    ]);
    await fireEvent.click(await screen.findByRole('button', { name: 'Open pull request…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Open pull request' });
    await within(dialog).findByRole('option', { name: /^fork/ });
    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Remote' }), { target: { value: 'origin' } });
    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Draft' }), { target: { value: 'draft' } });
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Labels' }), { target: { value: 'bug, ui' } });
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Reviewers' }), { target: { value: 'alice' } });

    // Refused first (a repository with no remote): the dialog stays, with Go's sentence.
    b.failNext('ForgeService.Open', NO_REMOTE);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Open pull request' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(NO_REMOTE);
    expect(screen.getAllByRole('alert')).toHaveLength(1);

    b.on('ForgeService.Open', () => ((state.pr = opened({ state: 'draft' })), { pull_request: state.pr, existing: false, problem: '' }));
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Open pull request' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(b.argsOf('ForgeService.Open')).toEqual([
      [done.id, { remote: 'origin', branch: '', draft: true, labels: ['bug', 'ui'], reviewers: ['alice'] }],
      [done.id, { remote: 'origin', branch: '', draft: true, labels: ['bug', 'ui'], reviewers: ['alice'] }],
    ]);
    expect(screen.getByRole('status').textContent).toBe('Opened pull request #7.');
    expect(within(panel()).getByText('Pull request #7')).toBeTruthy();
    expect(within(panel()).getByLabelText('State').textContent).toBe('draft');
    expect(within(panel()).getByLabelText('Review decision').textContent).toBe('review required');
    expect(within(panel()).getByRole('link', { name: 'https://github.com/me/app/pull/7' }).getAttribute('href')).toBe('https://github.com/me/app/pull/7');
    expect(within(within(panel()).getByRole('list', { name: 'Checks' })).getByRole('listitem').textContent).toContain('ci / test');
    // One is open: no second Open, only Push (new commits) beside Accept.
    expect(screen.queryByRole('button', { name: 'Open pull request…' })).toBeNull();
  });

  it('follows pr:changed:<id>, refreshes, pulls review comments into a fix run and closes', async () => {
    const { b, state } = setup(opened());
    await screen.findByText('Pull request #7');

    // The slow poll (or the CLI) learnt something: the panel reloads on the task's event only.
    state.pr = opened({ review: 'changes_requested', checks: [{ name: 'ci / test', state: 'failure', url: 'https://ci.example/1' }] });
    b.emit('pr:changed:OTHER');
    await new Promise((r) => setTimeout(r, 0));
    expect(within(panel()).getByLabelText('Review decision').textContent).toBe('review required');
    b.emit(`pr:changed:${done.id}`);
    await waitFor(() => expect(within(panel()).getByLabelText('Review decision').textContent).toBe('changes requested'));
    expect(within(panel()).getByRole('link', { name: 'ci / test' }).getAttribute('href')).toBe('https://ci.example/1');

    b.on('ForgeService.RequestChanges', () => ({ fix: 2, comments: 3 }));
    await fireEvent.click(within(panel()).getByRole('button', { name: 'Pull review comments into a fix run' }));
    expect((await screen.findByRole('status')).textContent).toBe('Fix run 2 queued with 3 review comments; its commits go to the same pull request.');
    expect(b.argsOf('ForgeService.RequestChanges')).toEqual([[done.id]]);

    b.on('ForgeService.Sync', () => ({ pull_request: (state.pr = opened({ state: 'merged', merge_sha: 'facade1234567' })), accepted: true, renamed: '', pushed: '' }));
    await fireEvent.click(within(panel()).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Merged on its forge: the task is accepted.'));
    expect(within(panel()).getByLabelText('State').textContent).toBe('merged');
    expect(within(panel()).getByText('facade123')).toBeTruthy();
    // A merged one can no longer be pulled from or closed.
    expect(within(panel()).queryByRole('button', { name: 'Close…' })).toBeNull();

    state.pr = opened();
    b.emit(`pr:changed:${done.id}`);
    await waitFor(() => within(panel()).getByRole('button', { name: 'Close…' }));
    await fireEvent.click(within(panel()).getByRole('button', { name: 'Close…' }));
    const confirm = await screen.findByRole('dialog', { name: 'Close pull request #7?' });
    await fireEvent.click(within(confirm).getByRole('checkbox'));
    b.on('ForgeService.Close', () => (state.pr = opened({ state: 'closed' })));
    await fireEvent.click(within(confirm).getByRole('button', { name: 'Close it' }));
    await waitFor(() => expect(within(panel()).getByLabelText('State').textContent).toBe('closed'));
    expect(b.argsOf('ForgeService.Close')).toEqual([[done.id, true]]);
    expect(screen.getByRole('button', { name: 'Open pull request…' })).toBeTruthy();
  });

  it('names a GitLab merge request as GitLab does: the panel, the notices and the close dialog', async () => {
    const gl = (over: Partial<PullRequestView> = {}) => opened({ forge: 'gitlab', host: 'gitlab.com', number: 3, url: 'https://gitlab.com/me/app/-/merge_requests/3', ...over });
    const { b, state } = setup(gl());
    const mr = await screen.findByRole('region', { name: 'Merge request' });
    expect(within(mr).getByText('Merge request !3')).toBeTruthy();
    b.on('ForgeService.RequestChanges', () => ({ fix: 1, comments: 1 }));
    await fireEvent.click(within(mr).getByRole('button', { name: 'Pull review comments into a fix run' }));
    expect((await screen.findByRole('status')).textContent).toBe('Fix run 1 queued with 1 review comment; its commits go to the same merge request.');
    await fireEvent.click(within(mr).getByRole('button', { name: 'Close…' }));
    const confirm = await screen.findByRole('dialog', { name: 'Close merge request !3?' });
    b.on('ForgeService.Close', () => (state.pr = gl({ state: 'closed' })));
    await fireEvent.click(within(confirm).getByRole('button', { name: 'Close it' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Closed merge request !3.'));
  });

  it('says merge request before one is opened when the remote is on a GitLab, and follows the remote chosen', async () => {
    const b = new StubBackend({
      'ReviewService.Summary': (id) => ({ task_id: id, base: 'main', head: 'feedc0de', files: [] }),
      'MergeQueueService.List': () => [],
      'ForgeService.PullRequest': () => pullRequest(done.id),
      'ForgeService.Remotes': () => [{ name: 'origin', url: 'https://gitlab.com/me/app.git', forge: 'gitlab' }],
    });
    render(ReviewScreen, { backend: b, tasks: [done], taskId: done.id, onpick: () => {} });
    await fireEvent.click(await screen.findByRole('button', { name: 'Open merge request…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Open merge request' });
    expect(within(dialog).getByRole('button', { name: 'Open merge request' })).toBeTruthy();

    b.on('ForgeService.Remotes', () => [
      { name: 'origin', url: 'https://gitlab.com/me/app.git', forge: 'gitlab' },
      { name: 'hub', url: 'https://github.com/me/app.git', forge: 'github' },
    ]);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Open merge request…' }));
    const again = await screen.findByRole('dialog', { name: 'Open pull request' }); // two forges, none chosen: the general word
    await fireEvent.change(within(again).getByRole('combobox', { name: 'Remote' }), { target: { value: 'origin' } });
    await screen.findByRole('dialog', { name: 'Open merge request' });
  });
});

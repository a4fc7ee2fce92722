import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { StubBackend } from '../backend/stub';
import { demo } from '../backend/stub-data';
import type { AcceptInput, AcceptPlan } from '../backend/review-api';
import AcceptDialog from './AcceptDialog.svelte';

const DONE = demo('Refactor settings loader');
const MSG = 'Refactor settings loader\n\nThe loader reads the file once; the reviewer approved.';

/** Go's dry run of a two-commit task: a hunk-level accept makes one squash commit of the chosen changes. */
function planFor(input: AcceptInput): AcceptPlan {
  const subset = !!input.only?.length;
  const kind = input.strategy === 'merge' ? 'merge_commit' : input.strategy === 'squash' ? 'squash_commit' : 'rebase';
  return {
    strategy: input.strategy,
    target_ref: 'refs/heads/main',
    target_sha: '1111111111111111111111111111111111111111',
    task_ref: `refs/heads/${DONE.branch}`,
    task_head: 'feedc0de00000000000000000000000000000000',
    head: 'feedc0de00000000000000000000000000000000',
    commits: ['9b8e771', '5d1c2a0'],
    fast_forward: true,
    makes: { kind, commits: kind === 'merge_commit' ? 3 : kind === 'squash_commit' ? 1 : 2, subset, files: [{ path: 'a.go', change: 'modified', additions: 3, deletions: 1, binary: false }], additions: 3, deletions: 1 },
  };
}

function backend(): StubBackend {
  return new StubBackend({
    'ReviewService.PlanAccept': (_id, input) => planFor(input),
    'ReviewService.AcceptMessage': (_id, strategy) => (strategy === 'rebase' ? '' : MSG),
  });
}

describe('AcceptDialog', () => {
  it("shows Go's default message as the placeholder of an empty message", async () => {
    const b = backend();
    render(AcceptDialog, { backend: b, taskId: DONE.id, onclose: () => {}, onresolved: () => {} });
    const field = screen.getByRole('textbox', { name: 'Commit message' }) as HTMLTextAreaElement;
    await waitFor(() => expect(field.placeholder).toBe(MSG));
    expect(b.argsOf('ReviewService.AcceptMessage')).toEqual([[DONE.id, 'merge']]);
    await fireEvent.click(screen.getByRole('radio', { name: 'Squash into one commit' }));
    await waitFor(() => expect(b.argsOf('ReviewService.AcceptMessage').at(-1)).toEqual([DONE.id, 'squash']));
  });

  it('says a hunk accept makes one squash commit of the chosen changes, not "2 commits"', async () => {
    render(AcceptDialog, { backend: backend(), taskId: DONE.id, only: [{ file: 'a.go', hunks: [1] }], expectHead: 'feedc0de', onclose: () => {}, onresolved: () => {} });
    const makes = await screen.findByLabelText('What the accept makes');
    expect(makes.textContent).toBe('One squash commit of the chosen changes (1 file, +3 −1)');
    expect(screen.getByLabelText('Dry run').textContent).not.toMatch(/2 commits|fast-forward/);
  });

  it('says a merge brings the task\'s commits in one merge commit', async () => {
    render(AcceptDialog, { backend: backend(), taskId: DONE.id, onclose: () => {}, onresolved: () => {} });
    expect((await screen.findByLabelText('What the accept makes')).textContent).toBe("A merge commit bringing the task's 2 commits (1 file, +3 −1)");
  });
});

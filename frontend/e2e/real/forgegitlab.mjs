// The merge request lifecycle against the fake GitLab run as a process on
// loopback (backend/forge/forgetest's TestServe with BOOF_FAKE_FORGE=gitlab),
// from the window: the token stored in Settings, Push → Open (a merge request,
// named so) → its state, pipeline and approvals → a reviewer's comments pulled
// into a fix run whose commits Refresh pushes to the same merge request → merged
// on the forge → Refresh accepts the task with the merge commit. Each step is
// checked in the window and on the forge's side (what it received).
import { assert } from '../harness.mjs';
import { seedForgeTask } from './forge.mjs';
import { nav, until } from './helpers.mjs';

export const forgeGitLabFlows = {
  'forge-merge-request-lifecycle': {
    async seed(world) {
      const token = 'glpat-e2eFakeForgeToken01';
      return seedForgeTask(world, token, 'gitlab', { push: true });
    },
    async run(page, { world, shot, seeded }) {
      const { ff, token } = seeded;
      try {
        await nav(page, 'Settings').click();
        const forges = page.getByRole('form', { name: 'Forge tokens' });
        await forges.getByRole('textbox', { name: 'Host' }).fill(ff.host);
        await forges.getByLabel('Token').fill(token);
        await forges.getByRole('button', { name: 'Store token' }).click();
        await forges.getByRole('status').filter({ hasText: `Stored the token of ${ff.host}` }).waitFor();

        // Push, then open the merge request: the window names it as GitLab does.
        await nav(page, 'Review').click();
        await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: 'Add a greeting (done)' });
        await page.getByRole('button', { name: 'Push' }).click();
        const pushed = page.getByRole('status').filter({ hasText: "Pushed the task's branch to origin/" });
        await pushed.waitFor();
        const branch = (await pushed.innerText()).match(/origin\/(\S+)\.$/)[1];
        await page.getByRole('button', { name: 'Open merge request…' }).click();
        const dialog = page.getByRole('dialog', { name: 'Open merge request' });
        await dialog.getByRole('button', { name: 'Open merge request' }).click();
        await dialog.waitFor({ state: 'detached', timeout: 30_000 });
        await page.getByRole('status').filter({ hasText: 'Opened merge request !1.' }).waitFor();
        const panel = page.getByRole('region', { name: 'Merge request' });
        await panel.getByText('Merge request !1').waitFor();
        await panel.getByLabel('State').filter({ hasText: 'open' }).waitFor();
        await panel.getByLabel('Review decision').filter({ hasText: 'no review yet' }).waitFor();
        const opened = await ff.pr(1);
        assert(opened.state === 'open' && opened.head === branch && opened.base === 'main', `the forge has merge request !1 open from ${branch} to main (${JSON.stringify(opened)})`);
        assert(opened.title === 'Add a greeting', `its title is the task's (${opened.title})`);
        assert(opened.head_sha === world.show(seeded.id).head_sha, "its head is the task's head");
        const asked = await ff.requests();
        assert(asked.some((r) => r === 'POST /api/v4/projects/me/app/merge_requests'), `the app used GitLab's API (${asked.join(', ')})`);
        assert(!asked.some((r) => r.includes('/api/v3/')), 'and none of GitHub’s');
        await shot('forge-mr-open');

        // The pipeline passes and a reviewer approves: Refresh shows both.
        await ff.control('checks', { n: '1', name: 'pipeline', state: 'success' });
        await ff.control('review', { n: '1', user: 'alice', state: 'APPROVED', body: '' });
        await panel.getByRole('button', { name: 'Refresh' }).click();
        await panel.getByRole('list', { name: 'Checks' }).locator('li.success').filter({ hasText: 'pipeline' }).waitFor();
        await panel.getByLabel('Review decision').filter({ hasText: 'approved' }).waitFor();
        await shot('forge-mr-synced');

        // A reviewer's comments (one on a line): pulled into a fix run from the panel.
        await ff.control('review', { n: '1', user: 'bob', state: 'COMMENTED', body: 'Say hello to the world, please.' });
        await ff.control('comment', { n: '1', user: 'bob', path: 'README.md', line: '1', body: 'Mention the greeting here.' });
        await panel.getByRole('button', { name: 'Pull review comments into a fix run' }).click();
        await page.getByRole('status').filter({ hasText: 'Fix run 1 queued with 2 review comments; its commits go to the same merge request.' }).waitFor();
        assert(world.show(seeded.id).status === 'pending', 'the task is back in the queue');
        const before = world.show(seeded.id).head_sha;
        world.cli('settings', 'set', 'runner.enabled', 'true');
        await until('the fix run to finish', () => world.show(seeded.id).status === 'done', 120_000);
        world.cli('settings', 'set', 'runner.enabled', 'false');
        const after = world.show(seeded.id).head_sha;
        assert(after !== before, 'the fix run made commits');
        const sections = world.cli('show', seeded.id, '--sections');
        for (const want of ['Say hello to the world, please.', 'Mention the greeting here.', 'README.md']) assert(sections.includes(want), `the fix run had ${want}`);

        // Refresh pushes the fix run's commits to the same merge request: no second one.
        await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: 'Add a greeting (done)' });
        await until('the forge to have the fix run’s commits on !1', async () => {
          if ((await ff.pr(1)).head_sha === after) return true;
          await panel.getByRole('button', { name: 'Refresh' }).click();
          return false;
        });
        assert((await ff.pr(2)) === null, 'no second merge request was opened');
        await shot('forge-mr-fix-pushed');

        // Merged on the forge: Refresh says so and the task is accepted with the merge commit.
        const { merge_sha: merge } = await ff.control('merge', { n: '1' });
        await panel.getByRole('button', { name: 'Refresh' }).click();
        await page.getByRole('status').filter({ hasText: 'Merged on its forge: the task is accepted.' }).waitFor();
        await panel.getByLabel('State').filter({ hasText: 'merged' }).waitFor();
        await panel.getByText(`Merge commit ${merge.slice(0, 7)}`).waitFor();
        await until('the task to be accepted', () => world.show(seeded.id).status === 'accepted');
        await shot('forge-mr-merged');
      } finally {
        await ff.stop();
      }
    },
  },
};

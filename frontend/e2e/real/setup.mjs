// First-run flows against the real backend (issue 40): a fresh data root (no
// working directory, every agent CLI at a path that does not exist) opens on
// the first-launch screen, which names what is missing; the New task form
// cannot queue a task without a repository (nothing stored, no "Added …"),
// and can once a repository is chosen, and the task runs on the mock.
import path from 'node:path';
import { assert } from '../harness.mjs';
import { nav, row, until, untilStatus } from './helpers.mjs';

/** The tools with a CLI of their own (host.Adapters with a Bin), each pointed at a missing path. */
const CLI_TOOLS = ['claude-code', 'codex', 'gemini', 'opencode', 'qwen-code'];

/** A fresh data root as a new user has it: no working directory, no agent CLI, the screen not dismissed. */
function freshRoot(world) {
  world.cli('settings', 'set', 'workingDirectory', '""');
  world.cli('settings', 'set', 'ui.setupDismissed', 'false');
  for (const t of CLI_TOOLS) world.cli('settings', 'set', `tools.${t}.path`, JSON.stringify(path.join(world.dir, `no-${t}`)));
  return {};
}

export const setupFlows = {
  'first-run-names-what-is-missing': {
    seed: freshRoot,
    async run(page, { shot }) {
      const screen = page.getByRole('region', { name: 'First launch' });
      await screen.getByRole('heading', { name: 'Before your first task' }).waitFor();
      await screen.getByText('No agent CLI is installed: tasks run through one of claude-code (claude)', { exact: false }).waitFor({ timeout: 60_000 });
      await screen.getByText('No repository is chosen: a task needs a git repository to work in.').waitFor();
      await screen.getByText('2 things to fix before a task can run', { exact: false }).waitFor();
      // Each fix is one click: the install commands to copy, the repository to choose.
      await screen.getByRole('button', { name: /^Copy npm install -g @anthropic-ai\/claude-code/ }).waitFor();
      await screen.getByRole('button', { name: 'Choose a repository…' }).waitFor();
      await shot('first-launch');
      // Dismissed: the tasks screen, and the dismissal is in the settings.
      await screen.getByRole('button', { name: 'Dismiss' }).click();
      await page.getByRole('form', { name: 'New task' }).waitFor();
      // Reachable again from Settings.
      await nav(page, 'Settings').click();
      await page.getByRole('button', { name: 'First-launch checks…' }).click();
      await screen.getByText('No repository is chosen', { exact: false }).waitFor();
    },
  },

  'first-run-needs-a-repository': {
    seed(world) {
      freshRoot(world);
      world.cli('settings', 'set', 'ui.setupDismissed', 'true');
      return {};
    },
    async run(page, { world, shot }) {
      const form = page.getByRole('form', { name: 'New task' });
      await form.getByText('(required: no working directory is set)').waitFor();
      await form.getByRole('textbox', { name: /Prompt/ }).fill('Add a greeting: write the mock file');
      await page.keyboard.press('Control+Enter');
      await form.getByRole('alert').filter({ hasText: 'Choose a repository folder first' }).waitFor();
      assert((await form.getByRole('status').filter({ hasText: 'Added' }).count()) === 0, 'no "Added … to the queue." for a task that cannot run');
      assert(world.list().length === 0, 'nothing was stored');
      // A folder that is not there: Go's sentence inline, and still nothing queued.
      const repo = form.getByRole('textbox', { name: /^Repository/ });
      await repo.fill(path.join(world.dir, 'gone'));
      await repo.press('Tab');
      await form.locator('#new-task-repo-check').filter({ hasText: 'does not exist' }).waitFor();
      await page.keyboard.press('Control+Enter');
      await until('the refusal in the form', async () => ((await form.locator('#new-task-error').textContent()) ?? '').includes('does not exist'));
      assert(world.list().length === 0, 'nothing was stored for a missing folder');
      await shot('new-task-needs-repository');
      // The repository chosen: queued there, and it runs on the mock.
      await repo.fill(world.repo);
      await repo.press('Tab');
      await form.locator('#new-task-repo-check').filter({ hasText: 'A git repository' }).waitFor();
      assert((await form.locator('#new-task-error').count()) === 0, 'the refusal went with the folder it was about');
      await shot('new-task-repository-chosen');
      await form.getByRole('textbox', { name: /Prompt/ }).click();
      await page.keyboard.press('Control+Enter');
      await form.getByRole('status').filter({ hasText: 'Added “Add a greeting: write the mock file” to the queue.' }).waitFor();
      const stored = world.list();
      assert(stored.length === 1 && stored[0].repo === world.repo, `the task runs in the repository chosen (${JSON.stringify(stored.map((t) => t.repo))})`);
      world.cli('settings', 'set', 'runner.enabled', 'true');
      await untilStatus(world, stored[0].id, 'done', 120_000);
      await row(page, 'Add a greeting', 'done').waitFor({ timeout: 30_000 });
      // The repository is now a recent one: one click next time.
      await form.getByRole('group', { name: 'Recent repositories' }).getByRole('button', { name: 'repo' }).waitFor();
    },
  },
};

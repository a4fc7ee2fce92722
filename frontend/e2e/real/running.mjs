// The running task against the real backend: its live feed, terminal and
// transcript, stop (from the panel and Ctrl+.), and injected prompts.
import { assert } from '../harness.mjs';
import { row, until, untilInView, untilStatus } from './helpers.mjs';

export const runningFlows = {
  'running-stop': {
    seed(world) {
      world.cli('settings', 'set', 'runner.enabled', 'true');
      // The developer streams slowly and then waits for a message that never comes.
      return { id: world.add('Add dark mode [[mock-delay developer=700]] [[mock-await developer=5]]', '--title', 'Add dark mode to the settings page') };
    },
    async run(page, { world, shot, seeded }) {
      await untilStatus(world, seeded.id, 'ongoing');
      await row(page, 'Add dark mode to the settings page', 'ongoing').getByRole('button').first().click();
      const panel = page.getByRole('region', { name: 'Running task' });
      await panel.waitFor();
      const feed = panel.getByRole('list', { name: 'Agent output' });
      await feed.getByText('Mock developer starting').waitFor({ timeout: 60_000 });
      // Streaming: items keep arriving while the panel is open.
      const n1 = await feed.getByRole('listitem').count();
      const waiting = feed.getByText('Waiting for 5 message(s).');
      await waiting.waitFor({ timeout: 30_000 });
      const n2 = await feed.getByRole('listitem').count();
      assert(n2 > n1, `the feed grew while open (${n1} → ${n2})`);
      // It followed its end while it grew: the newest entry is in view.
      await untilInView('the newest entry in view in the feed', feed, waiting);
      await shot('running-feed');
      await panel.getByRole('button', { name: 'Terminal' }).click();
      await page.waitForFunction(() => (document.querySelector('[aria-label="Running task"]')?.textContent ?? '').includes('Mock developer starting') || (document.querySelector('.xterm-rows')?.textContent ?? '').includes('mock'));
      await shot('running-terminal');
      await panel.getByRole('button', { name: 'Full transcript' }).click();
      const tr = page.getByRole('dialog', { name: 'Full transcript' });
      await tr.getByText('Mock developer starting', { exact: false }).first().waitFor();
      await shot('transcript');
      // Escape closes the dialog only (not the task), and focus goes back to the button that opened it.
      await page.keyboard.press('Escape');
      await tr.waitFor({ state: 'detached' });
      assert(await panel.getByRole('button', { name: 'Full transcript' }).evaluate((el) => el === document.activeElement), 'focus back on Full transcript');
      await panel.getByRole('button', { name: 'Full transcript' }).click();
      await tr.getByRole('button', { name: 'Close' }).click();
      // Stop asks first and says the work is kept.
      await panel.getByRole('button', { name: 'Stop', exact: true }).click();
      const dlg = page.getByRole('dialog');
      await dlg.getByText('The work is kept').waitFor();
      await shot('stop-confirm');
      await dlg.getByRole('button', { name: 'Stop task' }).click();
      await row(page, 'Add dark mode to the settings page', 'stopped').waitFor({ timeout: 30_000 });
      await untilStatus(world, seeded.id, 'stopped', 30_000);
      const t = world.show(seeded.id);
      assert(t.worktree_path && world.git('worktree', 'list').includes(seeded.id), `the stopped task keeps its worktree (${t.worktree_path})`);
      await shot('stopped');
    },
  },
  inject: {
    seed(world) {
      world.cli('settings', 'set', 'runner.enabled', 'true');
      return { id: world.add('Update the docs [[mock-await developer=2]]', '--title', 'Update the docs') };
    },
    async run(page, { world, shot, seeded }) {
      await until('the developer step', () => world.show(seeded.id).status === 'ongoing' && /developer/.test(world.cli('show', seeded.id)), 60_000);
      await row(page, 'Update the docs', 'ongoing').getByRole('button').first().click();
      const panel = page.getByRole('region', { name: 'Running task' });
      await panel.getByRole('list', { name: 'Agent output' }).getByText('Waiting for 2 message(s).').waitFor({ timeout: 60_000 });
      const box = page.getByRole('form', { name: 'Inject prompt' });
      await box.getByRole('button', { name: 'Inject' }).click();
      await page.getByRole('alert').filter({ hasText: 'Write something to send' }).waitFor();
      await box.getByRole('textbox').fill('Also update the screenshots in the README');
      await box.getByRole('button', { name: 'Inject' }).click();
      await page.getByRole('status').filter({ hasText: 'Delivered into the live session' }).waitFor();
      // The agent received it: it echoes it into the feed and its report, and finishes.
      const feed = panel.getByRole('list', { name: 'Agent output' });
      const echo = feed.getByText('received: Also update the screenshots in the README');
      await echo.waitFor({ timeout: 30_000 });
      // The feed follows its end: the echo is in view, not only in the page.
      await untilInView('the agent\'s echo in view in the feed', feed, echo);
      await shot('inject');
      await box.getByRole('textbox').fill('That is all');
      await box.getByRole('button', { name: 'Inject' }).click();
      await untilStatus(world, seeded.id, 'done', 120_000);
      assert(world.cli('show', seeded.id, '--sections').includes('Also update the screenshots in the README'), 'the injection reached the developer report');
    },
  },
  'shortcut-stop': {
    seed(world) {
      world.cli('settings', 'set', 'runner.enabled', 'true');
      return { id: world.add('Wait for me [[mock-await developer=5]]', '--title', 'Wait for me') };
    },
    async run(page, { world, seeded }) {
      await untilStatus(world, seeded.id, 'ongoing');
      await row(page, 'Wait for me', 'ongoing').waitFor();
      await page.getByRole('textbox', { name: /Prompt/ }).click();
      await page.keyboard.press('Control+.');
      await page.getByRole('dialog').getByText('The work is kept').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      assert(world.show(seeded.id).status === 'ongoing', 'Escape stops nothing');
      await page.keyboard.press('Control+4');
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      await page.keyboard.press('Control+n');
      await page.getByRole('textbox', { name: /Prompt/ }).waitFor();
      assert(await page.getByRole('textbox', { name: /Prompt/ }).evaluate((el) => el === document.activeElement), 'Ctrl+N focuses the prompt');
      await page.keyboard.press('Control+.');
      await page.getByRole('dialog').getByRole('button', { name: 'Stop task' }).click();
      await untilStatus(world, seeded.id, 'stopped', 30_000);
    },
  },
};

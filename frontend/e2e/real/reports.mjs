// Review screen flows of issue 40's words and reports against the real
// backend: reports rendered as markdown with verdict badges (light and dark
// screenshots), the header's stats after Leftovers, the window's accept with
// an empty message (the task's title lands in git), Tab kept in the accept
// dialog, and a fix run finishing with its feed open (no front-end error).
import { assert } from '../harness.mjs';
import { nav, openTask, until } from './helpers.mjs';

/** Seeds one task run to done by the mock pipeline; returns its id and branch. */
function doneTask(world, title, prompt = `${title}: write the mock file`) {
  const id = world.add(prompt, '--title', title);
  world.runQueue();
  const t = world.show(id);
  assert(t.status === 'done', `seeded task ${title} is done (${t.status}: ${t.error ?? ''})`);
  return { id, branch: t.branch };
}

async function pick(page, title) {
  await nav(page, 'Review').click();
  await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: `${title} (done)` });
}

const header = (page) => page.getByRole('region', { name: 'Review' }).locator('.bar');

export const reportFlows = {
  'words-reports-markdown': {
    dark: true,
    seed: (world) => doneTask(world, 'Refactor settings loader'),
    async run(page, { shot, world, seeded }) {
      await pick(page, 'Refactor settings loader');
      const files = world.cli('diff', seeded.id, '--stat', '--json');
      const n = (JSON.parse(files).files ?? JSON.parse(files)).length;
      const want = `${n} ${n === 1 ? 'file' : 'files'} ·`;
      await until(`the header to say ${want}`, async () => (await header(page).innerText()).includes(want));
      // Leftovers has its own stats; Reports names the branch's again.
      await page.getByRole('tab', { name: 'Leftovers' }).click();
      await page.getByRole('tab', { name: 'Reports' }).click();
      const reports = page.getByRole('list', { name: 'Observer and reviewer reports' });
      await reports.getByRole('heading', { name: 'Review' }).first().waitFor();
      await until(`the header to say ${want} on Reports`, async () => (await header(page).innerText()).includes(want));
      const text = await reports.innerText();
      assert(!text.includes('## Review'), 'no raw markdown in the reports');
      await reports.locator('.badge', { hasText: 'Approved' }).first().waitFor();
      await shot('review-reports');
    },
  },

  'words-accept-default-message': {
    seed: (world) => doneTask(world, 'Parse codex usage lines'),
    async run(page, { world }) {
      await pick(page, 'Parse codex usage lines');
      await page.getByRole('button', { name: 'Accept…' }).click();
      const dlg = page.getByRole('dialog', { name: "Accept the task's work" });
      await dlg.getByRole('radio', { name: 'Squash into one commit' }).check();
      const msg = dlg.getByRole('textbox', { name: 'Commit message' });
      await until("the placeholder to be the task's message", async () => ((await msg.getAttribute('placeholder')) ?? '').startsWith('Parse codex usage lines'));
      const accept = dlg.getByRole('button', { name: 'Accept', exact: true });
      await until('the dry run', () => accept.isEnabled());
      // One Tab past the last button comes back into the dialog.
      await accept.focus();
      await page.keyboard.press('Tab');
      assert(await dlg.evaluate((d) => d.contains(document.activeElement) && document.activeElement !== d), 'Tab stays inside the dialog');
      await accept.click();
      await dlg.getByRole('status').filter({ hasText: 'Accepted into' }).waitFor();
      const subject = world.git('log', '-1', '--format=%s', 'main').trim();
      assert(subject === 'Parse codex usage lines', `the accept's commit title is the task's (${subject})`);
      await dlg.getByRole('button', { name: 'Close' }).click();
    },
  },

  'words-fix-run-feed-open': {
    seed: (world) => doneTask(world, 'Shout the mock file', 'Shout the mock file\n[[mock-delay developer=150]]'),
    async run(page, { world, seeded }) {
      const pane = await openTask(page, 'Shout the mock file');
      world.cli('request-changes', seeded.id, '-m', 'Say why in a comment.');
      world.cli('settings', 'set', 'runner.enabled', 'true');
      const progress = pane.getByLabel('Progress');
      await until('the fix run to show', async () => (await progress.count()) > 0 && (await progress.innerText()).includes('fix run 1'), 60_000);
      await pane.getByRole('list', { name: 'Agent output' }).waitFor();
      await pane.getByRole('button', { name: 'Feed' }).click();
      await until('the fix run to finish', () => world.show(seeded.id).status === 'done', 120_000);
      await pane.getByRole('button', { name: 'Review changes' }).waitFor();
      // Finishing moves no focus into a field: "/" still searches.
      const focused = await page.evaluate(() => (document.activeElement ? `${document.activeElement.tagName} ${document.activeElement.getAttribute('aria-label') ?? ''}` : 'none'));
      console.log(`     focus after the run: ${focused}`);
      assert(!/^(TEXTAREA|INPUT|SELECT)/.test(focused), `finishing the run moved focus into a field (${focused})`);
      // Let the layout settle: a ResizeObserver loop error would come now (the flow fails on any page error).
      await page.waitForTimeout(1000);
    },
  },
};

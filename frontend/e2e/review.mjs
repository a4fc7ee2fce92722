// Review screen flows (issue 9): accept with a conflict, accept clean then undo, request changes.
import { assert } from './harness.mjs';

const nav = (page, name) => page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });

async function open(page, title) {
  await nav(page, 'Review').click();
  await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: `${title} (done)` });
  await page.getByRole('list', { name: 'Patch' }).getByText('package module').waitFor();
}

const status = (page, title) => page.evaluate((t) => [...window.__fake.tasks.values()].find((x) => x.title === t).status, title);

export const reviewFlows = {
  'review-accept-conflict': {
    schemes: ['light', 'dark'],
    async run(page, { shot }) {
      await open(page, 'Refactor settings loader');
      await page.getByRole('button', { name: 'Accept…' }).click();
      const dlg = page.getByRole('dialog', { name: "Accept the task's work" });
      const target = dlg.getByRole('textbox', { name: 'Target branch' });
      await page.waitForFunction(() => document.querySelector('dialog[open] input')?.value === 'main');
      await dlg.getByText('2 commits onto').waitFor();
      await target.fill('release/1.4');
      const files = dlg.getByRole('list', { name: 'Conflicting files' });
      await files.getByText('internal/config/config.go').waitFor();
      assert((await files.getByRole('listitem').count()) === 2, 'both conflicting files listed');
      assert(await dlg.getByRole('button', { name: 'Accept', exact: true }).isDisabled(), 'accept disabled on conflicts');
      await shot('review-accept-conflict');
      await target.fill('wip');
      await dlg.getByRole('list', { name: 'Uncommitted files' }).getByText('cmd/boof/main.go').waitFor();
      assert(await dlg.getByRole('button', { name: 'Accept', exact: true }).isDisabled(), 'accept disabled on a dirty checkout');
      await shot('review-accept-dirty');
      await dlg.getByRole('button', { name: 'Cancel' }).click();
      await dlg.waitFor({ state: 'detached' });
      assert((await status(page, 'Refactor settings loader')) === 'done', 'nothing changed');
      const accepts = await page.evaluate(() => window.__fake.calls.filter((c) => c.method === 'ReviewService.Accept').length);
      assert(accepts === 0, 'Accept never called');
    },
  },
  'review-accept-undo': {
    async run(page, { shot }) {
      await open(page, 'Refactor settings loader');
      await page.getByRole('button', { name: 'Accept…' }).click();
      const dlg = page.getByRole('dialog', { name: "Accept the task's work" });
      await dlg.getByText('2 commits onto').waitFor();
      await dlg.getByRole('radio', { name: /Squash/ }).check();
      await dlg.getByRole('textbox', { name: 'Commit message' }).fill('Split the settings loader into schema, defaults and validation');
      await dlg.getByRole('checkbox', { name: /Include leftovers/ }).check();
      await dlg.getByText('3 commits onto').waitFor();
      await shot('review-accept-dialog');
      await dlg.getByRole('button', { name: 'Accept', exact: true }).click();
      const done = dlg.getByRole('status').filter({ hasText: 'Accepted into main (squash)' });
      await done.waitFor();
      assert(/→/.test(await done.innerText()), 'old → new sha shown');
      assert((await status(page, 'Refactor settings loader')) === 'accepted', 'task accepted');
      const sent = await page.evaluate(() => window.__fake.calls.find((c) => c.method === 'ReviewService.Accept').args[1]);
      assert(sent.strategy === 'squash' && sent.include_leftovers && /^[0-9a-f]{40}$/.test(sent.expect_target), `accept input ${JSON.stringify(sent)}`);
      await shot('review-accepted');
      await dlg.getByRole('button', { name: 'Undo' }).click();
      await dlg.getByRole('status').filter({ hasText: 'Undone' }).waitFor();
      assert((await status(page, 'Refactor settings loader')) === 'done', 'task done again after undo');
      await dlg.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('button', { name: 'Accept…' }).waitFor();
    },
  },
  'review-request-changes': {
    async run(page, { shot }) {
      await open(page, 'Refactor settings loader');
      const patch = page.getByRole('list', { name: 'Patch' });
      await patch.getByRole('button', { name: 'Comment' }).first().click();
      await page.keyboard.type('Keep the old loader name as an alias');
      await patch.getByRole('button', { name: 'Drop this hunk' }).first().click();
      // Next file (j), drop its hunk too.
      await page.getByRole('list', { name: 'Changed files' }).getByRole('button').first().focus();
      await page.keyboard.press('j');
      await page.locator('.phead code', { hasText: 'file_1.go' }).waitFor();
      await page.keyboard.press('n');
      await patch.getByRole('button', { name: 'Drop this hunk' }).first().click();
      const cr = page.getByRole('region', { name: 'Request changes' });
      await cr.getByRole('textbox', { name: 'General comment' }).fill('Good direction; see the two hunks.');
      await cr.getByRole('list', { name: 'Hunk comments' }).getByRole('listitem').nth(1).waitFor();
      await shot('review-request-changes');
      await cr.getByRole('button', { name: /Send back \(1 comments, 2 drops\)/ }).click();
      await page.getByRole('status').filter({ hasText: 'Changes requested' }).waitFor();
      const sent = await page.evaluate(() => window.__fake.calls.find((c) => c.method === 'ReviewService.RequestChanges').args[1]);
      assert(sent.general === 'Good direction; see the two hunks.', 'general comment sent');
      assert(sent.comments.length === 1 && sent.comments[0].text === 'Keep the old loader name as an alias' && sent.comments[0].hunk.startsWith('@@'), `comment ${JSON.stringify(sent.comments)}`);
      assert(sent.drops.length === 2 && sent.drops.every((d) => d.hunk.startsWith('@@ ')), `drops ${JSON.stringify(sent.drops)}`);
      assert((await status(page, 'Refactor settings loader')) === 'pending', 'task back in the queue');
      await page.getByText('Read-only: the task is pending.').waitFor();
    },
  },
  'review-read-only': {
    async run(page) {
      await nav(page, 'Review').click();
      await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: 'Parse codex usage lines (failed)' });
      await page.getByText('Read-only: the task is failed.').waitFor();
      assert((await page.getByRole('button', { name: 'Accept…' }).count()) === 0, 'no accept on a failed task');
      assert((await page.getByRole('button', { name: 'Drop this hunk' }).count()) === 0, 'no hunk choices on a failed task');
    },
  },
  'review-reject': {
    async run(page, { shot }) {
      await open(page, 'Refactor settings loader');
      await page.getByRole('button', { name: 'Reject…' }).click();
      const dlg = page.getByRole('dialog', { name: 'Reject this task?' });
      await dlg.getByText('are kept').waitFor();
      await shot('review-reject');
      await dlg.getByRole('button', { name: 'Cancel' }).click();
      assert((await status(page, 'Refactor settings loader')) === 'done', 'cancel changes nothing');
      await page.getByRole('button', { name: 'Reject…' }).click();
      await dlg.getByRole('button', { name: 'Reject', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Rejected' }).waitFor();
      assert((await status(page, 'Refactor settings loader')) === 'rejected', 'task rejected');
      const branch = await page.evaluate(() => [...window.__fake.tasks.values()].find((x) => x.title === 'Refactor settings loader').branch);
      assert(!!branch, 'branch kept');
      await page.getByText('Read-only: the task is rejected.').waitFor();
    },
  },
  'review-reject-delete-branches': {
    async run(page, { shot }) {
      await open(page, 'Rename the module path');
      await page.getByRole('button', { name: 'Reject…' }).click();
      const dlg = page.getByRole('dialog', { name: 'Reject this task?' });
      await dlg.getByRole('checkbox', { name: /Also delete the task's branches/ }).check();
      await dlg.getByText('--leftovers').waitFor();
      await shot('review-reject-delete');
      await dlg.getByRole('button', { name: 'Reject and delete' }).click();
      await page.getByRole('status').filter({ hasText: 'Deleted' }).waitFor();
      assert((await status(page, 'Rename the module path')) === 'rejected', 'task rejected');
    },
  },
  // Prints figures (no thresholds): 5,000-file review open to file list and first patch, and per-file step.
  'review-timing': {
    async run(page) {
      await nav(page, 'Review').click();
      // Measured inside the page: from the change event to the first list row and the first patch line.
      const [list, first] = await page.evaluate(
        () =>
          new Promise((resolve) => {
            const sel = document.querySelector('select[aria-label="Task to review"]');
            sel.value = [...sel.options].find((o) => o.textContent.startsWith('Rename the module path')).value;
            const t0 = performance.now();
            sel.dispatchEvent(new Event('change', { bubbles: true }));
            let list = 0;
            const check = () => {
              if (!list && document.querySelector('[aria-label="Changed files"] [role=listitem]')) list = performance.now() - t0;
              if (list && (document.querySelector('[aria-label="Patch"]')?.textContent ?? '').includes('package module')) resolve([list, performance.now() - t0]);
              else setTimeout(check, 0);
            };
            check();
          }),
      );
      await page.getByRole('list', { name: 'Changed files' }).getByRole('button').first().focus();
      const steps = 20;
      const perFile = await page.evaluate(async (n) => {
        const start = performance.now();
        for (let i = 1; i <= n; i++) {
          document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: 'j', bubbles: true }));
          await new Promise((resolve) => {
            const check = () => (document.querySelector('.phead code')?.textContent?.endsWith(`file_${i}.go`) ? resolve() : requestAnimationFrame(check));
            check();
          });
        }
        return (performance.now() - start) / n;
      }, steps);
      console.log(`     figures: 5,000-file review: file list ${list.toFixed(0)} ms, first patch ${first.toFixed(0)} ms, next file ${perFile.toFixed(1)} ms/file over ${steps}`);
    },
  },
};

import { assert } from './harness.mjs';
import { reviewFlows } from './review.mjs';

const queueRows = (page) => page.locator('[data-group="pending"] + ul > li');
const queueTitles = (page) => queueRows(page).locator('.title').allInnerTexts();
const nav = (page, name) => page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });

/** Each flow gets a fresh page at the app's URL (1000×640). */
export const flows = {
  create: {
    schemes: ['light', 'dark'],
    async run(page, { shot }) {
      const prompt = page.getByRole('textbox', { name: /Prompt/ });
      await prompt.waitFor();
      assert(await prompt.evaluate((el) => el === document.activeElement), 'prompt has focus on load');
      // Type into whatever has focus, then Ctrl+Enter — as the real-window smoke test does.
      await page.keyboard.type('Write a CHANGELOG from the git history');
      await page.keyboard.press('Control+Enter');
      const row = page.locator('[data-group="pending"] + ul li', { hasText: 'Write a CHANGELOG from the git history' });
      await row.waitFor({ timeout: 5000 });
      assert((await prompt.inputValue()) === '', 'prompt cleared after submit');
      await page.getByRole('status').filter({ hasText: 'Added' }).waitFor();
      await shot('tasks');
    },
  },
  'create-invalid': {
    async run(page, { shot }) {
      await page.getByRole('button', { name: 'Add task' }).click();
      await page.getByRole('alert').filter({ hasText: 'Write a prompt' }).waitFor();
      await page.getByRole('textbox', { name: /Prompt/ }).fill('x');
      await page.getByRole('combobox', { name: 'Base ref' }).fill('no-such-branch');
      await page.getByRole('button', { name: 'Add task' }).click();
      await page.getByRole('alert').filter({ hasText: 'The base ref "no-such-branch" is not a branch or commit in /home/dev/project.' }).waitFor();
      await shot('new-task-error');
    },
  },
  reorder: {
    async run(page, { shot }) {
      await queueRows(page).first().waitFor();
      const before = await queueTitles(page);
      assert(before[0] === 'Fix flaky worktree test', `queue starts with the priority-2 task, got ${before}`);
      // Drag the last queued task onto the first one.
      await queueRows(page).last().dragTo(queueRows(page).first());
      await page.waitForFunction(() => document.querySelector('[data-group="pending"] + ul > li .title')?.textContent === 'Upgrade go-sqlite3');
      const after = await queueTitles(page);
      assert(after[0] === before.at(-1), `dragged task is first: ${after}`);
      // Keyboard reorder: Alt+ArrowDown moves it back one place.
      await queueRows(page).first().locator('.main').focus();
      await page.keyboard.press('Alt+ArrowDown');
      await page.waitForFunction(() => document.querySelectorAll('[data-group="pending"] + ul > li .title')[1]?.textContent === 'Upgrade go-sqlite3');
      // Skip toggle and priority.
      const doc = queueRows(page).filter({ hasText: 'Document the CLI' });
      await doc.getByRole('checkbox', { name: 'Skip' }).check();
      await page.waitForFunction(() => [...document.querySelectorAll('[data-group="pending"] + ul > li')].some((li) => li.textContent.includes('Document the CLI') && li.classList.contains('skipped')));
      await shot('reorder');
    },
  },
  'running-stop': {
    async run(page, { shot }) {
      await page.locator('[data-group="ongoing"] + ul li .main').first().click();
      const panel = page.getByRole('region', { name: 'Running task' });
      await panel.waitFor();
      const feed = panel.getByRole('list', { name: 'Agent output' });
      await feed.getByRole('listitem').first().waitFor();
      const n1 = await page.evaluate(() => window.__fake.calls.length);
      await page.waitForTimeout(600);
      const items = await feed.getByRole('listitem').count();
      assert(items > 5, `feed shows streamed items (${items})`);
      assert(items < 200, `feed is virtualized (${items} rendered)`);
      await panel.getByRole('button', { name: /^▸ Bash|Bash/ }).first().click();
      await shot('running-feed');
      await panel.getByRole('button', { name: 'Terminal' }).click();
      await panel.locator('.xterm-rows').waitFor();
      await page.waitForFunction(() => (document.querySelector('.xterm-rows')?.textContent ?? '').includes('Bash'));
      await shot('running-terminal');
      await panel.getByRole('button', { name: 'Full transcript' }).click();
      await page.getByRole('dialog', { name: 'Full transcript' }).getByText('go test').first().waitFor();
      await shot('transcript');
      // Escape closes the dialog only (not the task), and focus goes back to the button that opened it.
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Full transcript' }).waitFor({ state: 'detached' });
      assert(await panel.getByRole('button', { name: 'Full transcript' }).evaluate((el) => el === document.activeElement), 'focus back on Full transcript');
      await panel.getByRole('button', { name: 'Full transcript' }).click();
      await page.getByRole('dialog', { name: 'Full transcript' }).getByRole('button', { name: 'Close' }).click();
      // Stop asks first and says the work is kept.
      await panel.getByRole('button', { name: 'Stop', exact: true }).click();
      const dlg = page.getByRole('dialog');
      await dlg.getByText('The work is kept').waitFor();
      await shot('stop-confirm');
      await dlg.getByRole('button', { name: 'Stop task' }).click();
      await page.locator('.pane .status', { hasText: 'Stopped' }).waitFor();
      await page.locator('[data-group="stopped"] + ul li', { hasText: 'Add dark mode to the settings page' }).waitFor();
      assert(n1 > 0, 'backend was called');
      await shot('stopped');
    },
  },
  inject: {
    async run(page, { shot }) {
      await page.locator('[data-group="ongoing"] + ul li .main').first().click();
      const box = page.getByRole('form', { name: 'Inject prompt' });
      await box.getByRole('textbox').fill('Also update the screenshots in the README');
      await box.getByRole('button', { name: 'Inject' }).click();
      await page.getByRole('status').filter({ hasText: 'applies when the next step starts' }).waitFor();
      await box.getByRole('button', { name: 'Inject' }).click();
      await page.getByRole('alert').filter({ hasText: 'Write something to send' }).waitFor();
      await shot('inject');
    },
  },
  'shortcut-stop': {
    async run(page) {
      await page.getByRole('textbox', { name: /Prompt/ }).waitFor();
      await page.keyboard.press('Control+.');
      await page.getByRole('dialog').getByText('The work is kept').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await page.keyboard.press('Control+4');
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      await page.keyboard.press('Control+n');
      await page.getByRole('textbox', { name: /Prompt/ }).waitFor();
      assert(await page.getByRole('textbox', { name: /Prompt/ }).evaluate((el) => el === document.activeElement), 'Ctrl+N focuses the prompt');
    },
  },
  editor: {
    schemes: ['light', 'dark'],
    async run(page, { shot }) {
      await page.locator('[data-group="failed"] + ul li .main').first().click();
      const pane = page.getByRole('article', { name: 'Task' });
      await pane.getByRole('heading', { name: 'Parse codex usage lines' }).waitFor();
      await pane.getByText('CHANGES_REQUESTED').first().waitFor();
      await shot('editor');
      const title = pane.getByRole('textbox', { name: 'Title' });
      await title.fill('Parse codex usage lines (v2)');
      await pane.getByRole('button', { name: 'Save' }).click();
      await pane.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await page.locator('[data-group="failed"] + ul li', { hasText: 'Parse codex usage lines (v2)' }).waitFor();
      await pane.getByRole('button', { name: 'Retry' }).click();
      await page.locator('[data-group="pending"] + ul li', { hasText: 'Parse codex usage lines (v2)' }).waitFor();
      await pane.getByRole('button', { name: 'Delete…' }).click();
      await page.getByRole('dialog').getByText('Branches are kept').waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete task' }).click();
      await page.locator('.groups li', { hasText: 'Parse codex usage lines (v2)' }).waitFor({ state: 'detached' });
    },
  },
  'export-import': {
    async run(page, { shot }) {
      await page.locator('[data-group="done"] + ul li .main', { hasText: 'Refactor settings loader' }).click();
      await page.getByRole('article', { name: 'Task' }).getByRole('button', { name: 'Export' }).click();
      const md = await page.getByRole('textbox', { name: 'Exported markdown' }).inputValue();
      assert(md.includes('## Prompt') && md.includes('Split settings.go'), 'export has the prompt');
      await shot('export');
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
      await page.getByLabel('Import task').setInputFiles({ name: 'task.md', mimeType: 'text/markdown', buffer: Buffer.from(md.replace('title: Refactor settings loader', 'title: Imported copy')) });
      await page.getByRole('article', { name: 'Task' }).getByRole('heading', { name: 'Imported copy' }).waitFor();
      await page.locator('[data-group="pending"] + ul li', { hasText: 'Imported copy' }).waitFor();
      await page.getByLabel('Import task').setInputFiles({ name: 'bad.md', mimeType: 'text/markdown', buffer: Buffer.from('hello') });
      await page.getByRole('alert').filter({ hasText: 'Not a task file' }).waitFor();
    },
  },
  answer: {
    async run(page, { shot }) {
      await nav(page, /Actions/).click();
      const form = page.getByRole('form', { name: /Rate limiter/ });
      await form.getByText('per host or global').waitFor();
      await shot('actions');
      await form.getByRole('button', { name: 'Answer and re-queue' }).click();
      await form.getByRole('alert').filter({ hasText: 'Write an answer' }).waitFor();
      await form.getByRole('textbox').fill('Per host; wait when empty.');
      await form.getByRole('button', { name: 'Answer and re-queue' }).click();
      await page.getByRole('status').filter({ hasText: 'back in the queue' }).waitFor();
      await page.getByText('No task is waiting for an answer.').waitFor();
      await nav(page, /Tasks/).click();
      await page.locator('[data-group="pending"] + ul li', { hasText: 'Rate limiter for the API client' }).waitFor();
    },
  },
  commands: {
    async run(page, { shot }) {
      await nav(page, 'Commands').click();
      await page.getByRole('button', { name: 'New command' }).click();
      const form = page.getByRole('form', { name: 'New command' });
      await form.getByRole('textbox', { name: 'Name' }).fill('Add tests');
      await form.getByRole('textbox', { name: 'Instruction' }).fill('dup');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.getByRole('alert').filter({ hasText: "already exists" }).waitFor();
      await form.getByRole('textbox', { name: 'Name' }).fill('Keep it small');
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved “Keep it small”' }).waitFor();
      await page.getByRole('button', { name: 'Delete Small commits' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('button', { name: 'Delete Small commits' }).waitFor({ state: 'detached' });
      await shot('commands');
    },
  },
  'settings-invalid': {
    schemes: ['light', 'dark'],
    async run(page, { shot }) {
      await nav(page, 'Settings').click();
      const s = page.getByRole('region', { name: 'Settings' });
      await s.getByRole('spinbutton', { name: 'Concurrency' }).fill('99');
      await s.getByRole('textbox', { name: 'Backoff delays' }).fill('1000, 2000');
      await s.getByRole('button', { name: 'Save settings' }).click();
      await s.locator('.field-error[data-path="concurrency"]').filter({ hasText: 'Must be between 1 and 32 (got 99).' }).waitFor();
      await s.getByRole('alert').filter({ hasText: 'Nothing was saved' }).waitFor();
      const stored = await page.evaluate(() => window.__fake.settings.concurrency);
      assert(stored === 1, `invalid value not stored (${stored})`);
      assert(await s.getByRole('button', { name: 'Save settings' }).isEnabled(), 'still dirty after a refused save');
      await shot('settings-invalid');
      await s.getByRole('combobox', { name: 'observer tool' }).selectOption('');
      await s.getByText('no observer step').waitFor();
      await s.getByRole('spinbutton', { name: 'Concurrency' }).fill('2');
      await s.getByRole('button', { name: 'Save settings' }).click();
      await s.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
      const saved = await page.evaluate(() => ({ c: window.__fake.settings.concurrency, o: window.__fake.settings.roles.observer, b: window.__fake.settings.retries.backoff_ms }));
      assert(saved.c === 2 && saved.o === null && saved.b.join() === '1000,2000', `saved ${JSON.stringify(saved)}`);
      await s.getByRole('button', { name: 'Test codex' }).click();
      await s.locator('tr[data-tool="codex"] .good').waitFor();
      await shot('settings');
    },
  },
  charts: {
    async run(page, { shot }) {
      await nav(page, 'Settings').click();
      const usage = page.locator('[aria-label="Usage"]');
      await usage.scrollIntoViewIfNeeded();
      await usage.getByRole('img', { name: 'Per day' }).waitFor();
      const bars = await usage.getByRole('img', { name: 'Per day' }).locator('rect').count();
      assert(bars === 14, `14 daily bars (${bars})`);
      await usage.getByRole('button', { name: 'Tokens' }).click();
      await page.waitForFunction(() => /M$/.test(document.querySelector('[aria-label="Per model"] text.val')?.textContent ?? ''));
      await usage.getByRole('img', { name: 'Per task' }).scrollIntoViewIfNeeded();
      await shot('usage');
      await usage.getByRole('textbox', { name: 'From' }).fill('2026-12-31');
      await usage.getByRole('button', { name: 'Show' }).click();
      await usage.getByRole('alert').filter({ hasText: 'start date is after' }).waitFor();
    },
  },
  ...reviewFlows,
  review: {
    async run(page, { shot }) {
      await nav(page, 'Review').click();
      await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: 'Rename the module path (done)' });
      const files = page.getByRole('list', { name: 'Changed files' });
      await files.getByRole('listitem').first().waitFor();
      const rendered = await files.getByRole('listitem').count();
      assert(rendered < 150, `5000-file list is virtualized (${rendered} rendered)`);
      await page.getByText('5,000 files').waitFor();
      await page.getByRole('list', { name: 'Patch' }).getByText('package module').waitFor();
      await files.getByRole('button').first().focus();
      await page.keyboard.press('j');
      await page.locator('.phead code', { hasText: 'file_1.go' }).waitFor();
      await page.getByLabel('Ignore whitespace').check();
      await page.getByRole('list', { name: 'Patch' }).getByText('package module').waitFor();
      await page.getByLabel('Ignore whitespace').uncheck();
      await shot('review');
      await page.getByRole('checkbox', { name: 'Side by side' }).check();
      const side = page.getByRole('list', { name: 'Patch side by side' });
      await side.getByText('package module').first().waitFor();
      await shot('review-side-by-side');
      await page.getByRole('checkbox', { name: 'Side by side' }).uncheck();
      // The tabs work from the keyboard: one tab stop, arrows move and select.
      await page.getByRole('tab', { name: 'Changes', selected: true }).focus();
      await page.keyboard.press('ArrowRight');
      await page.getByText('3 files').waitFor();
      assert(await page.getByRole('tab', { name: 'Leftovers', selected: true }).evaluate((el) => el === document.activeElement), 'Leftovers selected and focused');
      await page.getByRole('tabpanel', { name: 'Leftovers' }).getByRole('list', { name: 'Changed files' }).waitFor();
      await page.getByRole('tab', { name: 'Commits' }).click();
      await page.getByRole('list', { name: 'Commits' }).getByText('Add a test for the path rewrite').waitFor();
      await shot('review-commits');
      await page.getByRole('tab', { name: 'Reports' }).click();
      await page.getByRole('list', { name: 'Observer and reviewer reports' }).getByRole('listitem').first().waitFor();
      await shot('review-reports');
    },
  },
};

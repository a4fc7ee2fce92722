// Browser flows against the real backend. Each flow may seed its world with the
// CLI before the app starts (`seed(world)` returns what `run` needs), then
// drives the UI by roles and labels and asserts both what the user sees and
// the real state (`boof-runner show --json`, git).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { assert } from '../harness.mjs';
import { reviewFlows } from './review.mjs';
import { contentFlows } from './content.mjs';
import { scheduleFlows } from './schedules.mjs';
import { mergeQueueFlows } from './mergequeue.mjs';

export const nav = (page, name) => page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });
const taskList = (page) => page.getByRole('region', { name: 'Tasks' });
/** The row of the task titled `title` (optionally in status `status`). */
export const row = (page, title, status) => taskList(page).locator(status ? `li[data-status="${status}"]` : 'li').filter({ hasText: title });
const pendingTitles = async (page) => (await taskList(page).locator('li[data-status="pending"] .title').allInnerTexts()).map((s) => s.trim());

/** Polls fn until it returns a truthy value (or throws after ms). */
export async function until(what, fn, ms = 30_000) {
  const deadline = Date.now() + ms;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
}

/**
 * Waits until `item` is inside the visible box of the scrolling list `list`:
 * a live feed that follows its end shows its newest entry, not only renders it.
 */
export const untilInView = (what, list, item, ms = 5_000) =>
  until(
    what,
    async () => {
      const [l, i] = [await list.boundingBox(), await item.boundingBox()];
      return !!l && !!i && i.y >= l.y - 1 && i.y + i.height <= l.y + l.height + 1;
    },
    ms,
  );

/** Waits until the CLI shows task id in status. */
export const untilStatus = (world, id, status, ms = 60_000) => until(`task ${id} to be ${status}`, () => world.show(id).status === status, ms);

const openTask = async (page, title) => {
  await row(page, title).getByRole('button').first().click();
  const pane = page.getByRole('article', { name: 'Task' });
  await pane.waitFor();
  return pane;
};

export const flows = {
  budgets: {
    seed(world) {
      // A daily cap of $1.00; the developer's mock tokens are priced at $1 per million.
      world.cli('settings', 'set', 'roles.developer', '{"tool":"mock","model":"mock-priced"}');
      world.cli('settings', 'set', 'budgets.daily', '{"usd":1,"mode":"cap"}');
      const id = world.add('Burn tokens [[mock-usage developer=2000000]] [[mock-delay developer=200]]', '--title', 'Burn tokens');
      world.runQueue();
      return { id };
    },
    async run(page, { world, shot, seeded }) {
      const t = world.show(seeded.id);
      assert(t.status === 'stopped' && t.error === 'budget: daily cap $1.00 reached', `seeded task ${t.status} ${t.error}`);
      await page.keyboard.press('Control+4');
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      const panel = page.getByLabel('Budgets', { exact: true });
      const bar = panel.getByRole('progressbar', { name: 'daily budget' });
      await bar.waitFor();
      assert((await bar.getAttribute('aria-valuenow')) === '100', 'the daily bar is full');
      await panel.getByText('Cap reached: the queue starts nothing it covers.').waitFor();
      await panel.getByText('budget: daily cap $1.00 reached').first().waitFor();
      await panel.scrollIntoViewIfNeeded();
      await shot('budgets');
      const retry = panel.getByRole('button', { name: /no cap holds/ });
      assert(await retry.isDisabled(), 'retry is disabled while the cap holds the task');
      // Raising the cap in the form frees the task; one action re-queues it.
      await panel.getByRole('spinbutton', { name: 'Per day USD' }).fill('10');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved.').waitFor();
      assert(world.cli('settings', 'get', 'budgets.daily.usd').trim() === '10', 'the cap was saved');
      await retry.click();
      await panel.getByText('1 task re-queued.').waitFor();
      assert(world.show(seeded.id).status === 'pending', 'the stopped task is pending again');
    },
  },
  create: {
    dark: true,
    async run(page, { world, shot }) {
      const prompt = page.getByRole('textbox', { name: /Prompt/ });
      await prompt.waitFor();
      assert(await prompt.evaluate((el) => el === document.activeElement), 'prompt has focus on load');
      await page.keyboard.type('Write a CHANGELOG from the git history');
      await page.keyboard.press('Control+Enter');
      await row(page, 'Write a CHANGELOG from the git history', 'pending').waitFor({ timeout: 10_000 });
      assert((await prompt.inputValue()) === '', 'prompt cleared after submit');
      await page.getByRole('status').filter({ hasText: 'Added' }).waitFor();
      const stored = world.list();
      assert(stored.length === 1 && stored[0].prompt === 'Write a CHANGELOG from the git history' && stored[0].status === 'pending', `stored ${JSON.stringify(stored)}`);
      assert(stored[0].repo === world.repo, `task runs against the working directory (${stored[0].repo})`);
      await shot('tasks');
    },
  },
  'create-invalid': {
    async run(page, { world, shot }) {
      await page.getByRole('button', { name: 'Add task' }).click();
      await page.getByRole('alert').filter({ hasText: 'Write a prompt' }).waitFor();
      await page.getByRole('textbox', { name: /Prompt/ }).fill('x');
      await page.getByRole('combobox', { name: 'Base ref' }).fill('no-such-branch');
      await page.getByRole('button', { name: 'Add task' }).click();
      await page.getByRole('alert').filter({ hasText: `The base ref "no-such-branch" is not a branch or commit in ${world.repo}.` }).waitFor();
      assert(world.list().length === 0, 'a refused task is not stored');
      // A real branch is accepted.
      world.git('branch', 'develop');
      await page.getByRole('combobox', { name: 'Base ref' }).fill('develop');
      await page.getByRole('button', { name: 'Add task' }).click();
      await until('the task on develop', () => world.list().find((t) => t.base === 'develop'));
      await shot('new-task-error');
    },
  },
  reorder: {
    seed(world) {
      const a = world.add('Fix flaky worktree test', '--title', 'Fix flaky worktree test', '--priority', '2');
      const b = world.add('Document the CLI', '--title', 'Document the CLI');
      const c = world.add('Upgrade go-sqlite3', '--title', 'Upgrade go-sqlite3');
      return { a, b, c };
    },
    async run(page, { world, shot, seeded }) {
      const rows = taskList(page).locator('li[data-status="pending"]');
      await rows.first().waitFor();
      const before = await pendingTitles(page);
      assert(before[0] === 'Fix flaky worktree test' && before.length === 3, `queue starts with the priority-2 task, got ${before}`);
      // Drag the last queued task onto the first one.
      await rows.last().dragTo(rows.first());
      await until('the dragged task first', async () => (await pendingTitles(page))[0] === before.at(-1));
      // The runner's order (priority desc, then position) follows: the dragged task was given the priority it needed.
      const order = () => world.list().filter((t) => t.status === 'pending').sort((x, y) => y.priority - x.priority || x.position - y.position).map((t) => t.title);
      await until('the stored order to follow the drag', () => order()[0] === before.at(-1));
      // Keyboard reorder: Alt+ArrowDown moves it back one place.
      await rows.first().getByRole('button').first().focus();
      await page.keyboard.press('Alt+ArrowDown');
      await until('Alt+Down to move it', async () => (await pendingTitles(page))[1] === before.at(-1));
      await until('the stored order after Alt+Down', () => order()[1] === before.at(-1));
      // Skip toggle.
      await row(page, 'Document the CLI').getByRole('checkbox', { name: 'Skip' }).check();
      await until('skip stored', () => world.show(seeded.b).skip === true);
      await shot('reorder');
    },
  },
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
  editor: {
    dark: true,
    seed(world) {
      // The reviewer asks for changes every round: the task fails after the fix rounds.
      const id = world.add('Parse codex usage lines [[mock-verdicts reviewer=CHANGES_REQUESTED]]', '--title', 'Parse codex usage lines');
      world.cli('settings', 'set', 'review.maxFixRounds', '1');
      world.runQueue();
      return { id };
    },
    async run(page, { world, shot, seeded }) {
      assert(world.show(seeded.id).status === 'failed', `seeded task failed (${world.show(seeded.id).status})`);
      const pane = await openTask(page, 'Parse codex usage lines');
      await pane.getByRole('heading', { name: 'Parse codex usage lines' }).waitFor();
      await pane.getByText('CHANGES_REQUESTED').first().waitFor();
      await shot('editor');
      // A failed task is edited after Retry: Go refuses edits of a failed task, and says so.
      await pane.getByRole('button', { name: 'Retry', exact: true }).click();
      await row(page, 'Parse codex usage lines', 'pending').waitFor();
      assert(world.show(seeded.id).status === 'pending', 'retried task is pending');
      const title = pane.getByRole('textbox', { name: 'Title' });
      await title.fill('Parse codex usage lines (v2)');
      await pane.getByRole('button', { name: 'Save' }).click();
      await pane.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await row(page, 'Parse codex usage lines (v2)', 'pending').waitFor();
      assert(world.show(seeded.id).title === 'Parse codex usage lines (v2)', 'title stored');
      await pane.getByRole('button', { name: 'Delete…' }).click();
      await page.getByRole('dialog').getByText('Branches are kept').waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete task' }).click();
      await row(page, 'Parse codex usage lines (v2)').waitFor({ state: 'detached' });
      assert(world.list().length === 0, 'task deleted');
      assert(world.git('branch', '--list', `boof-runner/${seeded.id}`).trim() !== '', 'its branch is kept');
    },
  },
  'export-import': {
    seed(world) {
      const id = world.add('Split settings.go into schema, defaults and validation', '--title', 'Refactor settings loader');
      world.runQueue();
      return { id };
    },
    async run(page, { world, shot, seeded }) {
      await openTask(page, 'Refactor settings loader');
      await page.getByRole('article', { name: 'Task' }).getByRole('button', { name: 'Export' }).click();
      const md = await page.getByRole('textbox', { name: 'Exported markdown' }).inputValue();
      assert(md === world.cli('export', seeded.id), 'the UI shows what the CLI exports');
      assert(md.includes('## Prompt') && md.includes('Split settings.go'), 'export has the prompt');
      await shot('export');
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
      const edited = md.replace(/^title: .*$/m, 'title: Imported copy');
      assert(edited !== md, 'the export has a title line');
      await page.getByLabel('Import task').setInputFiles({ name: 'task.md', mimeType: 'text/markdown', buffer: Buffer.from(edited) });
      await page.getByRole('article', { name: 'Task' }).getByRole('heading', { name: 'Imported copy' }).waitFor();
      const copy = await until('the imported task', () => world.list().find((t) => t.title === 'Imported copy'));
      // An import is a new task (new id) that keeps the exported status.
      assert(copy.id !== seeded.id && copy.prompt === world.show(seeded.id).prompt && copy.status === 'done', `a new task with the same prompt: ${JSON.stringify(copy)}`);
      const count = world.list().length;
      await page.getByLabel('Import task').setInputFiles({ name: 'bad.md', mimeType: 'text/markdown', buffer: Buffer.from('hello') });
      await page.getByRole('alert').filter({ hasText: 'Invalid task markdown' }).waitFor();
      assert(world.list().length === count, 'a malformed import changes nothing');
    },
  },
  answer: {
    seed(world) {
      const id = world.add('Rate limiter for the API client [[mock-questions planner=1]]', '--title', 'Rate limiter for the API client');
      world.runQueue();
      return { id };
    },
    async run(page, { world, shot, seeded }) {
      assert(world.show(seeded.id).status === 'actions', 'seeded task waits for answers');
      await nav(page, /Actions/).click();
      const form = page.getByRole('form', { name: /Rate limiter/ });
      await form.getByText('Which name should the mock file have?').waitFor();
      await shot('actions');
      await form.getByRole('button', { name: 'Answer and re-queue' }).click();
      await form.getByRole('alert').filter({ hasText: 'Write an answer' }).waitFor();
      await form.getByRole('textbox').fill('Per host; wait when empty.');
      await form.getByRole('button', { name: 'Answer and re-queue' }).click();
      await page.getByRole('status').filter({ hasText: 'back in the queue' }).waitFor();
      await page.getByText('No task is waiting for an answer.').waitFor();
      const t = world.show(seeded.id);
      assert(t.status === 'pending', `answered task is pending (${t.status})`);
      assert(world.cli('show', seeded.id, '--sections').includes('Per host; wait when empty.'), 'the answer is stored');
      await nav(page, /Tasks/).click();
      await row(page, 'Rate limiter for the API client', 'pending').waitFor();
    },
  },
  commands: {
    async run(page, { shot }) {
      const stored = () => page.evaluate(() => window.go.app.CommandService.List());
      await nav(page, 'Commands').click();
      const create = async (name, body) => {
        await page.getByRole('button', { name: 'New command' }).click();
        const form = page.getByRole('form', { name: 'New command' });
        await form.getByRole('textbox', { name: 'Name' }).fill(name);
        await form.getByRole('textbox', { name: 'Instruction' }).fill(body);
        await form.getByRole('button', { name: 'Save' }).click();
        return form;
      };
      // A name is a word (it is how a task refers to its command).
      const bad = await create('Small commits', 'Commit in small steps with clear messages.');
      await bad.getByRole('alert').filter({ hasText: "must be 1-64 letters, digits, '-', '_' or '.'" }).waitFor();
      assert((await stored()).length === 0, 'a bad name is not stored');
      await bad.getByRole('textbox', { name: 'Name' }).fill('small-commits');
      await bad.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved “small-commits”' }).waitFor();
      const form = await create('small-commits', 'dup');
      await form.getByRole('alert').filter({ hasText: 'already exists' }).waitFor();
      assert((await stored()).length === 1, 'a duplicate is not stored');
      await form.getByRole('textbox', { name: 'Name' }).fill('keep-it-small');
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved “keep-it-small”' }).waitFor();
      await page.getByRole('button', { name: 'Delete small-commits' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('button', { name: 'Delete small-commits' }).waitFor({ state: 'detached' });
      const left = await stored();
      assert(left.length === 1 && left[0].name === 'keep-it-small' && left[0].body === 'dup', `stored commands ${JSON.stringify(left)}`);
      await shot('commands');
    },
  },
  'settings-invalid': {
    dark: true,
    async run(page, { world, shot }) {
      const get = (key) => world.cli('settings', 'get', key).trim();
      await nav(page, 'Settings').click();
      const s = page.getByRole('region', { name: 'Settings' });
      await s.getByRole('spinbutton', { name: 'Concurrency' }).fill('99');
      await s.getByRole('textbox', { name: 'Backoff delays' }).fill('1000, 2000');
      await s.getByRole('button', { name: 'Save settings' }).click();
      await s.locator('[data-path="concurrency"]').filter({ hasText: 'Must be between 1 and 32 (got 99).' }).waitFor();
      await s.getByRole('alert').filter({ hasText: 'Nothing was saved' }).waitFor();
      assert(get('runner.concurrency') === '1', `invalid value not stored (${get('runner.concurrency')})`);
      assert(await s.getByRole('button', { name: 'Save settings' }).isEnabled(), 'still dirty after a refused save');
      await shot('settings-invalid');
      await s.getByRole('combobox', { name: 'observer tool' }).selectOption('');
      await s.getByText('no observer step').waitFor();
      await s.getByRole('spinbutton', { name: 'Concurrency' }).fill('2');
      await s.getByRole('button', { name: 'Save settings' }).click();
      await s.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
      assert(get('runner.concurrency') === '2', `concurrency saved (${get('runner.concurrency')})`);
      assert(JSON.parse(get('retries.backoffMs')).join() === '1000,2000', `backoff saved (${get('retries.backoffMs')})`);
      assert(get('roles.developer').includes('mock'), 'the roles kept their tool');
      await s.getByRole('button', { name: 'Test mock' }).click();
      await s.locator('tr[data-tool="mock"] .good').waitFor({ timeout: 30_000 });
      await shot('settings');
    },
  },
  // A second launch hands its request to the running app (one app per data
  // root), which opens that screen: the same path as the tray's quick actions
  // and notification clicks (those are driven over D-Bus by
  // app/shell/journey_test.go).
  'desktop-requests': {
    seed(world) {
      const done = world.add('Tidy the README', '--title', 'Tidy the README');
      world.runQueue();
      return { done };
    },
    async run(page, { world, shot, seeded }) {
      assert(world.show(seeded.done).status === 'done', 'the seeded task finished');
      const focusedLabel = () => page.evaluate(() => document.activeElement?.labels?.[0]?.textContent?.replace(/\s+/g, ' ').trim() ?? document.activeElement?.tagName);
      // `boof-runner --new-task` while the app runs, from the Settings screen: the form, the prompt focused.
      await nav(page, 'Settings').click();
      await page.getByRole('region', { name: 'Settings' }).waitFor();
      world.cli('--new-task'); // exits 0 once handed over
      await until('the prompt focused', async () => (await focusedLabel())?.startsWith('Prompt'));
      await shot('desktop-new-task');
      // `boof-runner --review`: the oldest finished task waiting for review.
      world.cli('--review');
      await until('the review of the done task', async () => (await page.getByRole('combobox', { name: 'Task to review' }).inputValue()) === seeded.done);
      await page.getByRole('tab', { name: 'Changes' }).waitFor();
      await shot('desktop-review');
      // `--review` with an unknown id: the Review screen says so.
      world.cli('--review', '0000000000000000');
      await page.getByRole('alert').filter({ hasText: 'Task "0000000000000000" does not exist.' }).waitFor();
      await shot('desktop-review-unknown');
      // Only one app: the second launches left no process of their own.
      assert(world.list().length === 1, 'no task was added by the launches');
    },
  },
  charts: {
    seed(world) {
      world.add('Add a greeting file', '--title', 'Add a greeting file');
      world.runQueue();
    },
    async run(page, { shot }) {
      await nav(page, 'Settings').click();
      const usage = page.getByLabel('Usage', { exact: true });
      await usage.scrollIntoViewIfNeeded();
      const perDay = usage.getByRole('img', { name: 'Per day' });
      await perDay.waitFor();
      const bars = await perDay.locator('rect').count();
      assert(bars >= 7, `a bar per day (${bars})`);
      await usage.getByRole('button', { name: 'Tokens' }).click();
      await usage.getByRole('img', { name: 'Per tool' }).getByText('mock', { exact: true }).waitFor();
      await usage.getByRole('img', { name: 'Per task' }).scrollIntoViewIfNeeded();
      await shot('usage');
      await usage.getByRole('textbox', { name: 'From' }).fill('2026-12-31');
      await usage.getByRole('textbox', { name: 'To' }).fill('2026-01-01');
      await usage.getByRole('button', { name: 'Show' }).click();
      await usage.getByRole('alert').filter({ hasText: 'from before to' }).waitFor();
    },
  },
  // The harness itself: a port already in use is replaced by another.
  'port-in-use': {
    firstPort() {
      return this._port;
    },
    async seed() {
      const server = net.createServer((c) => c.end('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello'));
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      flows['port-in-use']._port = server.address().port;
      flows['port-in-use']._server = server;
    },
    async run(page, { app }) {
      const taken = flows['port-in-use']._port;
      flows['port-in-use']._server.close();
      assert(app.port !== taken, `the harness picked another port than the taken ${taken}`);
      await page.getByRole('textbox', { name: /Prompt/ }).waitFor();
    },
  },
  'tool checks': {
    // claude and codex on PATH are scripts that record how they were called:
    // the window starts without running them (no CLI process, no model
    // request); the Settings screen runs the checks.
    seed(world) {
      const bin = path.join(world.dir, 'clis');
      const calls = path.join(world.dir, 'cli-calls.log');
      fs.mkdirSync(bin);
      for (const [name, version] of [['claude', '2.1.0 (Claude Code)'], ['codex', 'codex-cli 0.171.0']]) {
        fs.writeFileSync(path.join(bin, name), `#!/bin/sh\necho "${name} $*" >> '${calls}'\necho '${version}'\n`, { mode: 0o755 });
      }
      world.env = { PATH: `${bin}:${process.env.PATH}` };
      world.add('Fix flaky worktree test', '--title', 'Fix flaky worktree test');
      return { calls };
    },
    async run(page, { seeded, shot }) {
      const called = () => (fs.existsSync(seeded.calls) ? fs.readFileSync(seeded.calls, 'utf8') : '');
      // The task editor offers every registered tool, unchecked.
      const pane = await openTask(page, 'Fix flaky worktree test');
      await pane.getByText('Tool and model per role').click();
      const tools = pane.getByRole('combobox', { name: 'developer tool' });
      await until('the tool choices', async () => (await tools.locator('option').allTextContents()).map((t) => t.trim()).join(',') === '(settings),claude-code,codex,mock');
      await new Promise((r) => setTimeout(r, 3000));
      assert(called() === '', `the window's start ran the CLIs:\n${called()}`);
      await nav(page, 'Settings').click();
      const health = page.getByRole('table', { name: 'Tool health' });
      await health.locator('tr[data-tool="claude-code"]').filter({ hasText: '2.1.0' }).waitFor({ timeout: 30_000 });
      await health.locator('tr[data-tool="codex"]').filter({ hasText: '0.171.0' }).waitFor({ timeout: 30_000 });
      const log = called();
      assert(/^claude --version$/m.test(log) && /^codex --version$/m.test(log), `the Settings screen checked the CLIs:\n${log}`);
      await health.locator('tr[data-tool="mock"]').filter({ hasText: 'checked just now' }).waitFor();
      await shot('tool-health');
      // Opened again: the failing checks run again (the passing mock's is shown as it was).
      await nav(page, 'Tasks').click();
      await nav(page, 'Settings').click();
      await until('the failing checks run again', () => called().match(/^claude --version$/gm)?.length === 2 && called().match(/^codex --version$/gm)?.length === 2);
    },
  },
  ...reviewFlows,
  ...contentFlows,
  ...scheduleFlows,
  ...mergeQueueFlows,
};

// The contract table (e2e/contract/table.mjs) against the real backend; the
// fake runs the same table in src/lib/backend/contract.test.ts.
flows.contract = {
  async run(page) {
    const { cases, normalize } = await import('../contract/table.mjs');
    const call = (method, ...args) =>
      page.evaluate(
        async ([m, a]) => {
          const [s, n] = m.split('.');
          try {
            const v = await window.go.app[s][n](...a);
            return { ok: v === undefined ? null : v };
          } catch (e) {
            return { err: typeof e === 'string' ? e : String(e?.message ?? e) };
          }
        },
        [method, args],
      );
    const bad = [];
    for (const c of cases) {
      const got = normalize(await c.run(call));
      const gotOk = got && 'ok' in got ? { ok: got.ok ?? undefined } : got;
      if (JSON.stringify(gotOk) !== JSON.stringify(c.expect)) bad.push(`${c.name}: got ${JSON.stringify(gotOk)}, want ${JSON.stringify(c.expect)}`);
    }
    assert(bad.length === 0, `the real backend differs from the contract table:\n  ${bad.join('\n  ')}`);
  },
};

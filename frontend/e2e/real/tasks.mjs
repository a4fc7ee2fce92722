// Task flows against the real backend: add (and refuse) a task, reorder the
// queue, edit and delete, export and import, answer the planner, commands.
import { assert } from '../harness.mjs';
import { goldenRefusal, nav, openTask, pendingTitles, row, taskList, until } from './helpers.mjs';

export const taskFlows = {
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
      await page.getByRole('alert').filter({ hasText: goldenRefusal('create: unknown base ref', world.repo) }).waitFor();
      assert(world.list().length === 0, 'a refused task is not stored');
      // A real branch is accepted.
      world.git('branch', 'develop');
      await page.getByRole('combobox', { name: 'Base ref' }).fill('develop');
      await page.getByRole('button', { name: 'Add task' }).click();
      await until('the task on develop', () => world.list().find((t) => t.base === 'develop'));
      await shot('new-task-error');
    },
  },
  'create-cluster': {
    // A cluster in the settings (no cluster runs here: the runner is paused, and the
    // dev build links no client-go): the form offers it, the choice reaches the store
    // and the task pane; a cluster gone from the settings meanwhile is refused in one line.
    seed(world) {
      world.cli('settings', 'set', 'executor.image', 'registry.example/boof-runner:1');
      world.cli('settings', 'set', 'executor.context', 'prod');
      world.cli('settings', 'set', 'executor.namespace', 'agents');
    },
    async run(page, { world, shot }) {
      const form = page.getByRole('form', { name: 'New task' });
      const where = form.getByRole('group', { name: 'Where it runs' });
      await where.getByText('a Kubernetes Job: namespace agents, context prod').waitFor();
      assert(await where.getByRole('radio', { name: 'This machine' }).isChecked(), 'this machine is the first choice');
      const add = async (prompt, choice) => {
        await form.getByRole('textbox', { name: /Prompt/ }).fill(prompt);
        await where.getByRole('radio', { name: choice }).check();
        await form.getByRole('button', { name: 'Add task' }).click();
      };
      await add('Run the slow suite on the cluster', /The cluster/);
      await row(page, 'Run the slow suite on the cluster', 'pending').waitFor();
      await add('Tidy the README here', 'This machine');
      await row(page, 'Tidy the README here', 'pending').waitFor();
      const stored = Object.fromEntries(world.list().map((t) => [t.prompt, t.executor]));
      assert(stored['Run the slow suite on the cluster'] === 'kubernetes' && stored['Tidy the README here'] === 'local', `stored executors ${JSON.stringify(stored)}`);
      await shot('new-task-cluster');
      const pane = await openTask(page, 'Run the slow suite on the cluster');
      await pane.getByLabel('Where it runs').filter({ hasText: 'Runs in the cluster: a Kubernetes Job (namespace agents, context prod).' }).waitFor();
      await pane.getByRole('button', { name: 'Close task' }).click();
      // The cluster leaves the settings while the form offers it.
      await where.waitFor();
      world.cli('settings', 'set', 'executor.image', 'null');
      await add('Too late for the cluster', /The cluster/);
      await form.getByRole('alert').filter({ hasText: goldenRefusal('create: in a cluster the settings do not name') }).waitFor();
      await where.waitFor({ state: 'detached' });
      assert(world.list().length === 2, 'a refused task is not stored');
      assert((await form.getByRole('textbox', { name: /Prompt/ }).inputValue()) === 'Too late for the cluster', 'the prompt is kept');
      // Without the choice the task runs where the settings say: this machine.
      await form.getByRole('button', { name: 'Add task' }).click();
      await row(page, 'Too late for the cluster', 'pending').waitFor();
      const late = world.list().find((t) => t.prompt === 'Too late for the cluster');
      assert(late && !late.executor, `the task chooses nothing (${JSON.stringify(late)})`);
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
};

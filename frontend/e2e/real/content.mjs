// What the user gives a task reaches the agents (issue 16), against the real
// backend: a command template and attachments given in the New task form and
// found in every role's prompt as the mock agent received it, the copy a task
// keeps after its template changed, a template deleted before the add, and a
// task added with the CLI without --repo that the Review screen accepts, with
// its usage per role; a task file of the earlier version imported through the
// window, its notes shown, a second import refused until asked for.
import fs from 'node:fs';
import path from 'node:path';
import { assert } from '../harness.mjs';
import { nav, row, until, untilStatus } from './helpers.mjs';

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const spec = Buffer.from('flags must be long-form\n');
const ROLES = ['planner', 'refinement', 'developer', 'reviewer'];
/** A task file of the earlier TypeScript version (CRLF, nulls, unknown keys, ongoing). */
const earlierFile = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../backend/taskmd/testdata/earlier/ongoing-crlf.md');

/** Every prompt the mock agent received in world (its state files under the data root). */
function received(world) {
  const base = path.join(world.data, 'mock-state');
  if (!fs.existsSync(base)) return [];
  const out = [];
  for (const d of fs.readdirSync(base)) {
    const f = path.join(base, d, 'received.jsonl');
    if (!fs.existsSync(f)) continue;
    for (const line of fs.readFileSync(f, 'utf8').split('\n')) if (line.trim()) out.push(JSON.parse(line));
  }
  return out;
}

/** Saves a command template on the Commands screen (a new one, or `existing` edited), then goes back to Tasks. */
async function saveCommand(page, name, body, existing) {
  await nav(page, 'Commands').click();
  if (existing) await page.getByRole('button', { name: `Edit ${existing}` }).click();
  else await page.getByRole('button', { name: 'New command' }).click();
  const form = page.getByRole('form', { name: existing ? 'Edit command' : 'New command' });
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await form.getByRole('textbox', { name: 'Instruction' }).fill(body);
  await form.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').filter({ hasText: `Saved “${name}”` }).waitFor();
  await nav(page, /Tasks/).click();
}

/** The task detail as the window gets it (TaskService.Get). */
const detail = (page, id) => page.evaluate((i) => window.go.app.TaskService.Get(i), id);

export const contentFlows = {
  'template-attachments': {
    dark: true,
    async run(page, { world, shot }) {
      const text = 'Run golangci-lint before you finish.';
      await saveCommand(page, 'lint-first', text);
      const form = page.getByRole('form', { name: 'New task' });
      await form.getByRole('textbox', { name: /Prompt/ }).fill('Tidy the CLI flags');
      await form.getByRole('combobox', { name: 'Command template' }).selectOption({ label: 'lint-first' });
      await form.getByText("keeps a copy of this template's text").waitFor();
      await form.getByLabel('Attach files').setInputFiles([
        { name: 'spec.txt', mimeType: 'text/plain', buffer: spec },
        { name: 'screen.png', mimeType: 'image/png', buffer: png },
      ]);
      const files = form.getByRole('list', { name: 'Files to attach' });
      await files.getByText('screen.png').waitFor();
      assert((await files.getByRole('listitem').count()) === 2, 'both files listed before adding');
      await shot('new-task-content');
      await form.getByRole('button', { name: 'Add task' }).click();
      await page.getByRole('status').filter({ hasText: 'Added' }).waitFor();
      assert((await form.getByRole('list', { name: 'Files to attach' }).count()) === 0, 'file list cleared after adding');

      // Stored: the template's text copied into the task, the files copied outside the repository.
      const task = await until('the stored task', () => world.list().find((t) => t.prompt === 'Tidy the CLI flags'));
      assert(task.repo === world.repo, `the task records its repository (${task.repo})`);
      assert(world.cli('show', task.id, '--sections').includes(text), 'the task holds the copied template text');
      const d = await detail(page, task.id);
      assert(d.command_text === text, `TaskDetail.command_text = ${JSON.stringify(d.command_text)}`);
      const atts = Object.fromEntries(d.attachments.map((a) => [a.name, a]));
      assert(atts['spec.txt']?.size === spec.length && atts['screen.png']?.size === png.length, `attachments ${JSON.stringify(d.attachments)}`);
      for (const a of d.attachments) {
        assert(path.isAbsolute(a.path) && !a.path.startsWith(world.repo + path.sep), `${a.name} is kept outside the repository (${a.path})`);
      }
      assert(fs.readFileSync(atts['screen.png'].path).equals(png), 'the image is the same file, byte for byte');

      // The template changes afterwards; the task keeps its copy.
      await saveCommand(page, 'lint-first', 'Something else entirely.', 'lint-first');
      await row(page, 'Tidy the CLI flags', 'pending').getByRole('button').first().click();
      const pane = page.getByRole('article', { name: 'Task' });
      await pane.getByText('Text the agents get from').click();
      const shown = await pane.getByLabel('Command text').innerText();
      assert(shown === text, `the editor shows the task's copy, got ${JSON.stringify(shown)}`);
      const attached = pane.getByRole('list', { name: 'Attached files' });
      await attached.getByText(atts['spec.txt'].path).waitFor();
      await attached.getByText(`${spec.length} bytes`).waitFor();
      await shot('editor-content');

      // The runner takes the task: every role's prompt, as the agent received it, has the copy and the files.
      await page.getByLabel('Runner').getByRole('button', { name: 'Resume' }).click();
      await untilStatus(world, task.id, 'done', 180_000);
      const got = received(world);
      for (const role of ROLES) {
        const p = got.filter((r) => r.role === role).map((r) => r.prompt);
        assert(p.length > 0, `the ${role} ran (${got.map((r) => r.role)})`);
        for (const prompt of p) {
          assert(prompt.includes(`## Command\n\n${text}`) || prompt.includes(`## Command\n${text}`), `the ${role} got the template text:\n${prompt.slice(0, 600)}`);
          assert(!prompt.includes('Something else entirely.'), `the ${role} did not get the edited template`);
          for (const a of Object.values(atts)) {
            assert(prompt.includes(a.path) && prompt.includes(a.name), `the ${role}'s prompt lists ${a.name} at ${a.path}`);
          }
        }
      }
      // The files are not part of the work under review.
      const diff = world.cli('diff', task.id);
      assert(!diff.includes('spec.txt') && !diff.includes('screen.png'), 'attachments stay out of the diff');
    },
  },
  'template-deleted-before-add': {
    seed(world) {
      const f = path.join(world.dir, 'add-tests.md');
      fs.writeFileSync(f, 'Add table tests for every branch.\n');
      world.cli('commands', 'add', 'add-tests', f);
    },
    async run(page, { world }) {
      const form = page.getByRole('form', { name: 'New task' });
      await form.getByRole('textbox', { name: /Prompt/ }).fill('Uses a template that goes away');
      await form.getByRole('combobox', { name: 'Command template' }).selectOption({ label: 'add-tests' });
      await form.getByLabel('Attach files').setInputFiles({ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('a') });
      await form.getByRole('list', { name: 'Files to attach' }).getByText('a.txt').waitFor();
      // Meanwhile the template is deleted from the CLI.
      world.cli('commands', 'rm', 'add-tests');
      await form.getByRole('button', { name: 'Add task' }).click();
      await form.getByRole('alert').filter({ hasText: 'Command "add-tests" does not exist.' }).waitFor();
      assert(world.list().length === 0, 'nothing stored');
      const attDir = path.join(world.data, 'attachments');
      const left = fs.existsSync(attDir) ? fs.readdirSync(attDir) : [];
      assert(left.length === 0, `no attachment copied (${left})`);
      // The form keeps what the user gave: the files are still there to add without the template.
      await form.getByRole('list', { name: 'Files to attach' }).getByText('a.txt').waitFor();
      await form.getByRole('combobox', { name: 'Command template' }).selectOption({ label: '(none)' });
      await form.getByRole('button', { name: 'Add task' }).click();
      await page.getByRole('status').filter({ hasText: 'Added' }).waitFor();
      const t = await until('the task without the template', () => world.list().find((x) => x.prompt === 'Uses a template that goes away'));
      const d = await detail(page, t.id);
      assert(d.attachments.length === 1 && d.attachments[0].name === 'a.txt' && d.command_text === '', `added without the template: ${JSON.stringify(d)}`);
    },
  },
  // `boof-runner add PROMPT` without --repo (the README's path): the task
  // records the working directory, so the Review screen shows and accepts it.
  'cli-add-review': {
    seed(world) {
      const id = world.cli('add', '--title', 'Add a greeting file', 'Add a greeting file: write the mock file').trim();
      world.runQueue();
      return { id };
    },
    async run(page, { world, shot, seeded }) {
      const t = world.show(seeded.id);
      assert(t.status === 'done' && t.repo === world.repo, `the task ran in the working directory and recorded it (${t.status}, ${t.repo})`);
      // Usage per role in the task pane.
      await row(page, 'Add a greeting file', 'done').getByRole('button').first().click();
      const table = page.getByRole('table', { name: 'Usage per role' });
      await table.waitFor();
      const roles = (await table.locator('tbody th').allInnerTexts()).map((r) => r.trim().toLowerCase());
      assert(ROLES.every((r) => roles.includes(r)), `a row per role that ran: ${roles}`);
      await table.scrollIntoViewIfNeeded();
      await shot('usage-per-role');
      // The Review screen: the diff, then accept.
      const mainBefore = world.git('rev-parse', 'main').trim();
      await nav(page, 'Review').click();
      await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: 'Add a greeting file (done)' });
      await page.getByRole('list', { name: 'Patch' }).getByText('Developer run 1.').first().waitFor();
      assert((await page.getByText('has no working directory recorded').count()) === 0, 'no missing-repo error');
      await page.getByRole('button', { name: 'Accept…' }).click();
      const dlg = page.getByRole('dialog', { name: "Accept the task's work" });
      await page.waitForFunction(() => document.querySelector('dialog[open] input')?.value === 'main');
      await dlg.getByLabel('What the accept makes').waitFor(); // the dry run has answered
      await dlg.getByRole('button', { name: 'Accept', exact: true }).click();
      await dlg.getByRole('status').filter({ hasText: /Accepted into (refs\/heads\/)?main/ }).waitFor({ timeout: 30_000 });
      assert(world.show(seeded.id).status === 'accepted', 'task accepted');
      assert(world.git('rev-parse', 'main').trim() !== mainBefore, 'main moved');
      // The usage dashboard sums per role.
      await dlg.getByRole('button', { name: 'Close' }).click();
      await nav(page, 'Settings').click();
      const usage = page.getByLabel('Usage', { exact: true });
      await usage.scrollIntoViewIfNeeded();
      const perRole = usage.getByRole('img', { name: 'Per role' });
      await perRole.waitFor();
      for (const r of ROLES) await perRole.getByText(r, { exact: true }).first().waitFor();
    },
  },
  'import-earlier': {
    async run(page, { world, shot }) {
      const body = fs.readFileSync(earlierFile);
      await page.getByLabel('Import task').setInputFiles({ name: 'task.md', mimeType: 'text/markdown', buffer: body });
      const notes = page.getByRole('list', { name: 'Import notes' });
      await notes.getByText('unknown key "assignee" kept').waitFor();
      await notes.getByText('status ongoing imported as stopped (the run it was in is gone)').waitFor();
      const pane = page.getByRole('article', { name: 'Task' });
      await pane.getByText('The login test fails one run in ten. Find out why.').first().waitFor();
      const [t] = world.list();
      assert(t && t.status === 'stopped' && t.origin_id === '2025-12-01-flaky-login' && t.id !== t.origin_id, `imported with a new id, its origin kept: ${JSON.stringify(t)}`);
      assert(JSON.stringify(t.extra) === '{"assignee":"dana","estimate":{"hours":3}}', `unknown keys kept (${JSON.stringify(t.extra)})`);
      assert(world.cli('export', t.id).includes('extra: {"assignee":"dana","estimate":{"hours":3}}'), 'the export gives them back');
      await shot('import-earlier');
      // The same file again: refused, nothing stored, until the user asks for a second copy.
      await page.getByLabel('Import task').setInputFiles({ name: 'task.md', mimeType: 'text/markdown', buffer: body });
      await page.getByRole('alert').filter({ hasText: `Task "2025-12-01-flaky-login" was already imported (as ${t.id})` }).waitFor();
      assert(world.list().length === 1, 'a duplicate is not stored');
      await page.getByRole('button', { name: 'Import a second copy' }).click();
      await until('the second copy', () => world.list().length === 2);
      const copy = world.list().find((x) => x.id !== t.id);
      assert(copy.origin_id === t.origin_id && copy.status === 'stopped', `second copy ${JSON.stringify(copy)}`);
      assert((await page.getByRole('alert').count()) === 0, 'the error is gone');
    },
  },
};

// Task content flows (issue 16): a command template and attachments given in
// the New task form, the copy a task keeps of its template, usage per role.
import { assert } from './harness.mjs';

const nav = (page, name) => page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });
const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

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

export const contentFlows = {
  'template-attachments': {
    schemes: ['light', 'dark'],
    async run(page, { shot }) {
      await saveCommand(page, 'Lint first', 'Run golangci-lint before you finish.');
      const form = page.getByRole('form', { name: 'New task' });
      await form.getByRole('textbox', { name: /Prompt/ }).fill('Tidy the CLI flags');
      await form.getByRole('combobox', { name: 'Command template' }).selectOption({ label: 'Lint first' });
      await form.getByText("keeps a copy of this template's text").waitFor();
      await form.getByLabel('Attach files').setInputFiles([
        { name: 'spec.txt', mimeType: 'text/plain', buffer: Buffer.from('flags must be long-form\n') },
        { name: 'screen.png', mimeType: 'image/png', buffer: png },
      ]);
      const files = form.getByRole('list', { name: 'Files to attach' });
      await files.getByText('screen.png').waitFor();
      assert((await files.getByRole('listitem').count()) === 2, 'both files listed before adding');
      await shot('new-task-content');
      await form.getByRole('button', { name: 'Add task' }).click();
      await page.getByRole('status').filter({ hasText: 'Added' }).waitFor();
      assert((await form.getByRole('list', { name: 'Files to attach' }).count()) === 0, 'file list cleared after adding');

      // The stored task: the template's text copied, the files with their paths.
      const task = await page.evaluate(() => [...window.__fake.tasks.values()].find((t) => t.prompt === 'Tidy the CLI flags'));
      assert(task.command_text === 'Run golangci-lint before you finish.', `copied text ${task.command_text}`);
      assert(task.attachments.map((a) => `${a.name}:${a.size}`).join(',') === 'spec.txt:24,screen.png:16', `attachments ${JSON.stringify(task.attachments)}`);

      // The template changes afterwards; the task keeps its copy.
      await saveCommand(page, 'Lint first', 'Something else entirely.', 'Lint first');
      await page.locator('[data-group="pending"] + ul li .main', { hasText: 'Tidy the CLI flags' }).click();
      const pane = page.getByRole('article', { name: 'Task' });
      await pane.getByText('Text the agents get from').click();
      const text = await pane.getByLabel('Command text').innerText();
      assert(text === 'Run golangci-lint before you finish.', `editor shows the copy, got ${text}`);
      const attached = pane.getByRole('list', { name: 'Attached files' });
      await attached.getByText(`/attachments/${task.id}/screen.png`).waitFor();
      await attached.getByText('24 bytes').waitFor();
      await shot('editor-content');
    },
  },
  'template-deleted-before-add': {
    async run(page) {
      const form = page.getByRole('form', { name: 'New task' });
      await form.getByRole('textbox', { name: /Prompt/ }).fill('Uses a template that goes away');
      await form.getByRole('combobox', { name: 'Command template' }).selectOption({ label: 'Add tests' });
      await form.getByLabel('Attach files').setInputFiles({ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('a') });
      await form.getByRole('list', { name: 'Files to attach' }).getByText('a.txt').waitFor();
      // Another window deletes the template meanwhile.
      await page.evaluate(() => (window.__fake.commands = window.__fake.commands.filter((c) => c.name !== 'Add tests')));
      const before = await page.evaluate(() => window.__fake.tasks.size);
      await form.getByRole('button', { name: 'Add task' }).click();
      await form.getByRole('alert').filter({ hasText: 'Command "cmd1" does not exist.' }).waitFor();
      assert((await page.evaluate(() => window.__fake.tasks.size)) === before, 'nothing stored');
      await form.getByRole('list', { name: 'Files to attach' }).getByText('a.txt').waitFor();
    },
  },
  'import-earlier-again': {
    async run(page, { shot }) {
      const file = {
        name: '2025-10-03-retry-flaky-upload.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from('---\nid: 2025-10-03-retry-flaky-upload\ntitle: Retry flaky uploads\nstatus: done\ncompletedRuns: 1\nassignee: dana\n---\n\n## Prompt\n\nRetry the upload up to 3 times.\n'),
      };
      await page.getByLabel('Import task').setInputFiles(file);
      const pane = page.getByRole('article', { name: 'Task' });
      await pane.getByRole('heading', { name: 'Retry flaky uploads' }).waitFor();
      await page.getByRole('list', { name: 'Import notes' }).getByText('unknown key "assignee" kept').waitFor();
      await shot('import-notes');
      const before = await page.evaluate(() => window.__fake.tasks.size);
      await page.getByLabel('Import task').setInputFiles(file);
      await page.getByRole('alert').filter({ hasText: 'Task "2025-10-03-retry-flaky-upload" was already imported' }).waitFor();
      assert((await page.evaluate(() => window.__fake.tasks.size)) === before, 'the refused import stored nothing');
      await shot('import-duplicate');
      await page.getByRole('button', { name: 'Import a second copy' }).click();
      await page.waitForFunction((n) => window.__fake.tasks.size === n + 1, before);
      assert((await page.getByRole('alert').count()) === 0, 'the error is gone after the second copy');
    },
  },
  'usage-per-role': {
    async run(page, { shot }) {
      await page.locator('[data-group="done"] + ul li .main', { hasText: 'Refactor settings loader' }).click();
      const table = page.getByRole('table', { name: 'Usage per role' });
      await table.waitFor();
      const roles = await table.locator('tbody th').allInnerTexts();
      assert(roles.map((r) => r.toLowerCase()).join(',') === 'planner,refinement,developer,observer,reviewer', `roles ${roles}`);
      await page.getByRole('table', { name: 'Usage per role' }).scrollIntoViewIfNeeded();
      await shot('usage-per-role');
      await nav(page, 'Settings').click();
      await page.getByText('Per role', { exact: true }).waitFor();
    },
  },
};

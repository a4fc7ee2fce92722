// Review screen flows against the real backend: a task run to done by the mock
// tool in a real repository; accept (conflict, dirty checkout, squash + undo),
// request changes, reject (keeping or deleting branches), read-only, a 5,000-file diff.
import fs from 'node:fs';
import path from 'node:path';
import { assert } from '../harness.mjs';
import { git } from './app.mjs';
import { nav, until } from './helpers.mjs';

/** Seeds one task run to done by the mock pipeline; returns its id, branch file and worktree. */
export function doneTask(world, title, prompt = `${title}: write the mock file`) {
  const id = world.add(prompt, '--title', title);
  world.runQueue();
  const t = world.show(id);
  assert(t.status === 'done', `seeded task ${title} is done (${t.status}: ${t.error ?? ''})`);
  const files = JSON.parse(world.cli('diff', id, '--stat', '--json'));
  const list = Array.isArray(files) ? files : files.files;
  return { id, file: list[0].path, worktree: t.worktree_path, branch: t.branch, head: t.head_sha };
}

/** Commits extra files onto the task's branch (more of the agent's work), in a worktree of our own. */
export function commitOnTask(world, task, files, message) {
  const wt = path.join(world.dir, 'extra-worktree');
  world.git('worktree', 'add', '-q', wt, task.branch);
  for (const [name, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(wt, name)), { recursive: true });
    fs.writeFileSync(path.join(wt, name), body);
  }
  git(wt, 'add', '-A');
  git(wt, 'commit', '-q', '-m', message);
  world.git('worktree', 'remove', wt);
}

export async function open(page, title, text = 'Developer run 1.') {
  await nav(page, 'Review').click();
  await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: `${title} (done)` });
  await page.getByRole('list', { name: 'Patch' }).getByText(text).first().waitFor();
}

/** The prompts the mock agent received in a worktree, oldest first (mock.ReadReceived). */
export function received(world, worktree) {
  const base = path.join(world.data, 'mock-state');
  if (!fs.existsSync(base)) return [];
  const out = [];
  for (const d of fs.readdirSync(base)) {
    const f = path.join(base, d, 'received.jsonl');
    if (!fs.existsSync(f)) continue;
    for (const line of fs.readFileSync(f, 'utf8').split('\n')) if (line) out.push(JSON.parse(line));
  }
  return out.filter((r) => r.dir === worktree).sort((a, b) => a.at.localeCompare(b.at));
}

const selectedFile = (page) => page.getByRole('list', { name: 'Changed files' }).locator('button[aria-current="true"]');

export const reviewFlows = {
  'review-accept-conflict': {
    dark: true,
    seed(world) {
      const t = doneTask(world, 'Refactor settings loader');
      // release/1.4 adds the same file with other content: a conflict.
      world.git('switch', '-q', '-c', 'release/1.4', 'main');
      fs.writeFileSync(path.join(world.repo, t.file), 'Something else entirely.\n');
      world.git('add', t.file);
      world.git('commit', '-q', '-m', 'Conflicting change');
      // wip is checked out and dirty.
      world.git('switch', '-q', '-c', 'wip', 'main');
      fs.appendFileSync(path.join(world.repo, 'README.md'), 'Uncommitted edit.\n');
      fs.writeFileSync(path.join(world.repo, t.file), 'Untracked in the way.\n');
      return t;
    },
    async run(page, { world, shot, seeded }) {
      const mainBefore = world.git('rev-parse', 'main').trim();
      await open(page, 'Refactor settings loader');
      await page.getByRole('button', { name: 'Accept…' }).click();
      const dlg = page.getByRole('dialog', { name: "Accept the task's work" });
      const target = dlg.getByRole('textbox', { name: 'Target branch' });
      await dlg.getByLabel('What the accept makes').waitFor(); // the dry run has answered
      await target.fill('release/1.4');
      const files = dlg.getByRole('list', { name: 'Conflicting files' });
      await files.getByText(seeded.file).waitFor();
      assert(await dlg.getByRole('button', { name: 'Accept', exact: true }).isDisabled(), 'accept disabled on conflicts');
      await shot('review-accept-conflict');
      await target.fill('wip');
      await dlg.getByRole('list', { name: 'Uncommitted files' }).getByText('README.md').waitFor();
      assert(await dlg.getByRole('button', { name: 'Accept', exact: true }).isDisabled(), 'accept disabled on a dirty checkout');
      await shot('review-accept-dirty');
      await dlg.getByRole('button', { name: 'Cancel' }).click();
      await dlg.waitFor({ state: 'detached' });
      assert(world.show(seeded.id).status === 'done', 'nothing changed: still done');
      assert(world.git('rev-parse', 'main').trim() === mainBefore, 'main did not move');
      assert(world.git('status', '--porcelain').includes('README.md'), 'the dirty checkout is untouched');
    },
  },
  'review-accept-undo': {
    seed(world) {
      return doneTask(world, 'Refactor settings loader');
    },
    async run(page, { world, shot, seeded }) {
      const mainBefore = world.git('rev-parse', 'main').trim();
      await open(page, 'Refactor settings loader');
      await page.getByRole('button', { name: 'Accept…' }).click();
      const dlg = page.getByRole('dialog', { name: "Accept the task's work" });
      await page.waitForFunction(() => document.querySelector('dialog[open] input')?.value === 'main');
      await dlg.getByLabel('What the accept makes').waitFor(); // the dry run has answered
      await dlg.getByRole('radio', { name: /Squash/ }).check();
      await dlg.getByRole('textbox', { name: 'Commit message' }).fill('Split the settings loader into schema, defaults and validation');
      await dlg.getByRole('checkbox', { name: /Include leftovers/ }).check();
      await shot('review-accept-dialog');
      await dlg.getByRole('button', { name: 'Accept', exact: true }).click();
      const done = dlg.getByRole('status').filter({ hasText: /Accepted into (refs\/heads\/)?main \(squash\)/ });
      await done.waitFor({ timeout: 30_000 });
      assert(/→/.test(await done.innerText()), 'old → new sha shown');
      assert(world.show(seeded.id).status === 'accepted', 'task accepted');
      const mainAfter = world.git('rev-parse', 'main').trim();
      assert(mainAfter !== mainBefore, 'main moved');
      assert(world.git('log', '-1', '--format=%s', 'main').trim() === 'Split the settings loader into schema, defaults and validation', 'the squash commit has the message');
      assert(world.git('rev-list', '--count', `${mainBefore}..main`).trim() === '1', 'one squash commit');
      const content = world.git('show', `main:${seeded.file}`);
      assert(content.includes('Developer run 1.') && content.includes('Uncommitted note'), `the leftovers came along (${content})`);
      await shot('review-accepted');
      await dlg.getByRole('button', { name: 'Undo' }).click();
      await dlg.getByRole('status').filter({ hasText: 'Undone' }).waitFor();
      assert(world.show(seeded.id).status === 'done', 'task done again after undo');
      assert(world.git('rev-parse', 'main').trim() === mainBefore, 'main is back where it was');
      await dlg.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('button', { name: 'Accept…' }).waitFor();
    },
  },
  'review-request-changes': {
    seed(world) {
      const t = doneTask(world, 'Refactor settings loader');
      commitOnTask(world, t, { 'loader/alias.go': 'package loader\n\n// Load is the old name.\nvar Load = LoadSettings\n' }, 'Add the alias');
      return t;
    },
    async run(page, { world, shot, seeded }) {
      await open(page, 'Refactor settings loader', 'package loader');
      const patch = page.getByRole('list', { name: 'Patch' });
      // The gutter numbers the new file's lines 1-4; a comment anchored to line 4.
      await patch.getByRole('button', { name: 'Line 4', exact: true }).waitFor();
      const gutter = await patch.locator('.ln .num:nth-child(2)').allTextContents();
      assert(gutter.join(',') === '1,2,3,4', `the gutter numbers lines 1-4 (${gutter})`);
      await patch.getByRole('button', { name: 'Line 4', exact: true }).click();
      await page.keyboard.press('c');
      await patch.getByRole('textbox', { name: 'Comment on alias.go:4' }).waitFor();
      await page.keyboard.type('Name the alias after what it loads');
      await page.keyboard.press('Escape');
      await patch.getByRole('group', { name: 'Comments' }).getByText('Name the alias after what it loads').waitFor();
      await patch.getByRole('button', { name: 'Comment', exact: true }).first().click();
      await page.keyboard.type('Keep the old loader name as an alias');
      await patch.getByRole('button', { name: 'Drop this hunk' }).first().click();
      // Next file (n), next hunk (j), drop its hunk too.
      await page.getByRole('list', { name: 'Changed files' }).getByRole('button').first().focus();
      await page.keyboard.press('n');
      await selectedFile(page).filter({ hasText: seeded.file }).waitFor();
      await patch.getByText('Developer run 1.').waitFor(); // its diff has loaded
      await page.keyboard.press('j');
      await patch.getByRole('button', { name: 'Drop this hunk' }).first().click();
      const cr = page.getByRole('region', { name: 'Request changes' });
      await cr.getByRole('textbox', { name: 'General comment' }).fill('Good direction; see the two hunks.');
      await cr.getByRole('list', { name: 'Hunk comments' }).getByRole('listitem').nth(3).waitFor();
      await shot('review-request-changes');
      await cr.getByRole('button', { name: 'Send back (2 comments and 2 dropped hunks)' }).click();
      await page.getByRole('status').filter({ hasText: 'Fix run 1 queued' }).waitFor();
      assert(world.show(seeded.id).status === 'pending', 'task back in the queue');
      const sections = world.cli('show', seeded.id, '--sections');
      for (const want of ['Human review', 'Good direction; see the two hunks.', 'Keep the old loader name as an alias', 'loader/alias.go', seeded.file]) {
        assert(sections.includes(want), `the stored review has ${want}`);
      }
      // The fix run (the app runs the queue): the developer first, with the review in its prompt; both hunks reverted in Drop hunk commits.
      const before = received(world, seeded.worktree).filter((g) => !g.prompt.includes('## Human review')).length;
      world.cli('settings', 'set', 'runner.enabled', 'true');
      await until('the fix run to finish', () => world.show(seeded.id).status === 'done', 120_000);
      const got = received(world, seeded.worktree).slice(before);
      assert(got.length > 0 && got[0].role === 'developer', `the fix run starts at the developer (${got.map((g) => g.role)})`);
      assert(!got.some((g) => g.role === 'planner' || g.role === 'refinement'), 'no re-planning');
      for (const want of ['Fix run 1 for your review', 'Good direction; see the two hunks.', 'Keep the old loader name as an alias', '### Dropped hunks', '+var Load = LoadSettings', '+Developer run 1.']) {
        assert(got[0].prompt.includes(want), `the developer received ${want}`);
      }
      // The line comment names the file and line 4.
      assert(/`loader\/alias\.go`, hunk 1 `[^`]*`, line 4:\n(?:(?!\n\d+\. )[\s\S])*Name the alias after what it loads/.test(got[0].prompt), `the developer's prompt names loader/alias.go, line 4 with the comment:\n${got[0].prompt}`);
      const log = world.git('log', '--format=%s', `${seeded.head}..${seeded.branch}`);
      assert((log.match(/^Drop hunk /gm) ?? []).length === 2, `two Drop hunk commits (${log})`);
      // The screen, still on the task, reads its new result: the header names the fix run's head.
      const head = world.git('rev-parse', seeded.branch).trim();
      await page.getByRole('region', { name: 'Review' }).getByText(head.slice(0, 9)).first().waitFor({ timeout: 30_000 });
    },
  },
  'review-accept-hunks': {
    seed(world) {
      const t = doneTask(world, 'Refactor settings loader');
      commitOnTask(world, t, { 'loader/alias.go': 'package loader\n\nvar Load = LoadSettings\n' }, 'Add the alias');
      return t;
    },
    async run(page, { world, shot, seeded }) {
      const mainBefore = world.git('rev-parse', 'main').trim();
      await open(page, 'Refactor settings loader', 'package loader');
      await page.getByRole('checkbox', { name: 'Accept loader/alias.go' }).check();
      await page.getByRole('button', { name: /Accept chosen \(1 file\)/ }).click();
      const dlg = page.getByRole('dialog', { name: "Accept the task's work" });
      await dlg.getByRole('note').filter({ hasText: 'loader/alias.go' }).waitFor();
      assert(await dlg.getByRole('radio', { name: /Merge/ }).isDisabled(), 'merge is off for a hunk-level accept');
      // The dry run says what the accept makes: one squash commit of the chosen changes, not the branch's commits.
      await dlg.getByLabel('What the accept makes').filter({ hasText: 'One squash commit of the chosen changes' }).waitFor();
      await shot('review-accept-hunks');
      await dlg.getByRole('button', { name: 'Accept', exact: true }).click();
      await dlg.getByRole('status').filter({ hasText: /Accepted into (refs\/heads\/)?main \(squash\)/ }).waitFor({ timeout: 30_000 });
      assert(world.git('rev-list', '--count', `${mainBefore}..main`).trim() === '1', 'one squash commit');
      const tree = world.git('ls-tree', '-r', '--name-only', 'main');
      assert(tree.includes('loader/alias.go') && !tree.includes(seeded.file), `only the chosen file went in (${tree})`);
      assert(world.git('rev-parse', seeded.branch).trim() !== mainBefore, 'the task branch keeps the rest');
      assert(world.show(seeded.id).status === 'accepted', 'task accepted');
    },
  },
  'review-read-only': {
    seed(world) {
      const id = world.add('Parse codex usage lines [[mock-verdicts reviewer=REJECT]]', '--title', 'Parse codex usage lines');
      world.runQueue();
      return { id };
    },
    async run(page, { world, seeded }) {
      assert(world.show(seeded.id).status === 'failed', `seeded task failed (${world.show(seeded.id).status})`);
      await nav(page, 'Review').click();
      await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: 'Parse codex usage lines (failed)' });
      await page.getByText('Read-only: the task is failed.').waitFor();
      assert((await page.getByRole('button', { name: 'Accept…' }).count()) === 0, 'no accept on a failed task');
      assert((await page.getByRole('button', { name: 'Drop this hunk' }).count()) === 0, 'no hunk choices on a failed task');
    },
  },
  'review-reject': {
    seed(world) {
      return doneTask(world, 'Refactor settings loader');
    },
    async run(page, { world, shot, seeded }) {
      await open(page, 'Refactor settings loader');
      await page.getByRole('button', { name: 'Reject…' }).click();
      const dlg = page.getByRole('dialog', { name: 'Reject this task?' });
      await dlg.getByText('are kept').waitFor();
      await shot('review-reject');
      await dlg.getByRole('button', { name: 'Cancel' }).click();
      assert(world.show(seeded.id).status === 'done', 'cancel changes nothing');
      await page.getByRole('button', { name: 'Reject…' }).click();
      await dlg.getByRole('button', { name: 'Reject', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Rejected' }).waitFor();
      assert(world.show(seeded.id).status === 'rejected', 'task rejected');
      assert(world.git('branch', '--list', seeded.branch).trim() !== '', 'branch kept');
      await page.getByText('Read-only: the task is rejected.').waitFor();
    },
  },
  'review-reject-delete-branches': {
    seed(world) {
      return doneTask(world, 'Rename the module path');
    },
    async run(page, { world, shot, seeded }) {
      const before = world.git('branch', '--list', `boof-runner/${seeded.id}*`).trim().split('\n').length;
      assert(before >= 2, `the task has its branch and a leftovers branch (${before})`);
      await open(page, 'Rename the module path');
      await page.getByRole('button', { name: 'Reject…' }).click();
      const dlg = page.getByRole('dialog', { name: 'Reject this task?' });
      await dlg.getByRole('checkbox', { name: /Also delete the task's branches/ }).check();
      await dlg.getByText('--leftovers').waitFor();
      await shot('review-reject-delete');
      await dlg.getByRole('button', { name: 'Reject and delete' }).click();
      await page.getByRole('status').filter({ hasText: 'Deleted' }).waitFor();
      assert(world.show(seeded.id).status === 'rejected', 'task rejected');
      await until('the branches gone', () => world.git('branch', '--list', `boof-runner/${seeded.id}*`).trim() === '');
    },
  },
  review: {
    seed(world) {
      const t = doneTask(world, 'Rename the module path');
      const files = {};
      for (let i = 0; i < 4999; i++) files[`pkg/file_${String(i).padStart(4, '0')}.go`] = `package module\n\n// File ${i}.\nconst N${i} = ${i}\n`;
      commitOnTask(world, t, files, 'Add a test for the path rewrite');
      return t;
    },
    async run(page, { shot }) {
      await open(page, 'Rename the module path', 'package module');
      const files = page.getByRole('list', { name: 'Changed files' });
      await files.getByRole('listitem').first().waitFor();
      const rendered = await files.getByRole('listitem').count();
      assert(rendered < 150, `5000-file list is virtualized (${rendered} rendered)`);
      await page.getByText('5,000 files').waitFor();
      // The tree shows pkg/ first: its first file is shown; n moves to the next file.
      await selectedFile(page).filter({ hasText: 'file_0000.go' }).waitFor();
      await files.getByRole('button', { name: /file_0000\.go/ }).focus();
      // Go is coloured (the languages register at the first line shown, not at load).
      const keyword = page.getByRole('list', { name: 'Patch' }).locator('.hljs-keyword', { hasText: 'package' });
      await keyword.first().waitFor();
      await page.keyboard.press('n');
      await selectedFile(page).filter({ hasText: 'file_0001.go' }).waitFor();
      await page.getByRole('list', { name: 'Patch' }).getByText('// File 1.').waitFor();
      await page.getByLabel('Ignore whitespace').check();
      await page.getByRole('list', { name: 'Patch' }).getByText('package module').waitFor();
      await page.getByLabel('Ignore whitespace').uncheck();
      await shot('review');
      await page.getByRole('checkbox', { name: 'Side by side' }).check();
      await page.getByRole('list', { name: 'Patch side by side' }).getByText('package module').first().waitFor();
      await shot('review-side-by-side');
      await page.getByRole('checkbox', { name: 'Side by side' }).uncheck();
      // The tabs work from the keyboard: one tab stop, arrows move and select.
      await page.getByRole('tab', { name: 'Changes', selected: true }).focus();
      await page.keyboard.press('ArrowRight');
      await page.getByText(/\d+ files?/).first().waitFor();
      assert(await page.getByRole('tab', { name: 'Leftovers', selected: true }).evaluate((el) => el === document.activeElement), 'Leftovers selected and focused');
      // The leftovers' tree: pkg/ first (its files deleted there), the mock's file after them.
      await page.getByRole('tabpanel', { name: 'Leftovers' }).getByRole('list', { name: 'Changed files' }).getByText('file_0000.go').waitFor();
      await page.getByRole('tabpanel', { name: 'Leftovers' }).getByText('deleted', { exact: true }).waitFor();
      await page.getByRole('tab', { name: 'Commits' }).click();
      await page.getByRole('list', { name: 'Commits' }).getByText('Add a test for the path rewrite').waitFor();
      await page.getByRole('list', { name: 'Commits' }).getByText('mock: developer run 1').waitFor();
      await shot('review-commits');
      await page.getByRole('tab', { name: 'Reports' }).click();
      await page.getByRole('list', { name: 'Observer and reviewer reports' }).getByText('Checked the working tree.').first().waitFor();
      await shot('review-reports');
      // Figures (no thresholds): the next file on n, over 5 steps.
      await page.getByRole('tab', { name: 'Changes' }).click();
      await page.getByRole('list', { name: 'Patch' }).getByText('// File 0.').waitFor(); // reloaded
      await files.getByRole('button', { name: /file_0000\.go/ }).focus();
      const steps = 5;
      const t0 = Date.now();
      for (let i = 1; i <= steps; i++) {
        await page.keyboard.press('n');
        await page.getByRole('list', { name: 'Patch' }).getByText(`// File ${i}.`).waitFor();
      }
      console.log(`     figures: 5,000-file review against the real backend: next file ${((Date.now() - t0) / steps).toFixed(1)} ms/file over ${steps}`);
    },
  },
};

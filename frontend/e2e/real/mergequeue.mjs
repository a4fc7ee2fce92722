// Merge queue flows against the real backend (issue 19): a task the mock
// finished is added to the queue from the Review screen and landed by the
// app's runner on main; a red verify parks an entry with its reason and
// "Send back" starts a fix run whose developer is asked to make it green.
import fs from 'node:fs';
import path from 'node:path';
import { assert } from '../harness.mjs';
import { git } from './app.mjs';
import { nav, until } from './helpers.mjs';

/** Seeds one task run to done by the mock pipeline. */
function doneTask(world, title) {
  const id = world.add(`${title}: write the mock file`, '--title', title);
  world.runQueue();
  const t = world.show(id);
  assert(t.status === 'done', `seeded task ${title} is done (${t.status}: ${t.error ?? ''})`);
  return { id, worktree: t.worktree_path, branch: t.branch, head: t.head_sha };
}

/** Commits files onto the task's branch in a worktree of our own. */
function commitOnTask(world, task, files, message) {
  const wt = path.join(world.dir, 'extra-worktree');
  world.git('worktree', 'add', '-q', wt, task.branch);
  for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(wt, name), body);
  git(wt, 'add', '-A');
  git(wt, 'commit', '-q', '-m', message);
  world.git('worktree', 'remove', wt);
}

/** Opens the done task on the Review screen and adds it to the merge queue. */
async function addFromReview(page, title, strategy = 'merge') {
  await nav(page, 'Review').click();
  await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: `${title} (done)` });
  await page.getByRole('combobox', { name: 'Merge queue strategy' }).selectOption(strategy);
  await page.getByRole('button', { name: 'Add to merge queue' }).click();
  await page.getByRole('status').filter({ hasText: 'In the merge queue: queued on main, position 1' }).waitFor();
}

/** The prompts the mock agent received in a worktree, oldest first. */
function received(world, worktree) {
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

export const mergeQueueFlows = {
  'merge-queue-lands': {
    seed(world) {
      return doneTask(world, 'Add a greeting');
    },
    async run(page, { world, shot, seeded }) {
      const mainBefore = world.git('rev-parse', 'main').trim();
      await addFromReview(page, 'Add a greeting', 'squash');
      await page.getByRole('button', { name: 'Open merge queue' }).click();
      const queued = page.getByRole('list', { name: 'Queued entries' }).getByRole('listitem', { name: 'Add a greeting' });
      await queued.getByLabel('State').filter({ hasText: 'queued' }).waitFor();
      await queued.getByText('→ main · squash').waitFor();
      await shot('merge-queue-queued');
      // The runner (paused in every world) lands it once resumed; the screen follows live.
      world.cli('settings', 'set', 'runner.enabled', 'true');
      const landed = page.getByRole('list', { name: 'Landed entries' }).getByRole('listitem', { name: 'Add a greeting' });
      await landed.getByLabel('State').filter({ hasText: 'landed' }).waitFor({ timeout: 60_000 });
      await page.getByText('The merge queue is empty.').waitFor();
      await shot('merge-queue-landed');
      const mainAfter = world.git('rev-parse', 'main').trim();
      assert(mainAfter !== mainBefore, 'main moved');
      assert(world.git('rev-list', '--count', `${mainBefore}..main`).trim() === '1', 'one squash commit on main');
      const diff = world.git('diff', '--name-only', mainBefore, 'main');
      const taskDiff = world.git('diff', '--name-only', mainBefore, seeded.branch);
      assert(diff === taskDiff && diff.trim() !== '', `main holds the task's work (${diff} vs ${taskDiff})`);
      assert(world.show(seeded.id).status === 'accepted', `the task is accepted (${world.show(seeded.id).status})`);
      const listed = JSON.parse(world.cli('queue', 'list', '--all', '--json'));
      assert(listed.length === 1 && listed[0].state === 'landed' && listed[0].landed === mainAfter, `the CLI sees it landed (${JSON.stringify(listed)})`);
    },
  },
  'merge-queue-red-send-back': {
    seed(world) {
      const t = doneTask(world, 'Add a marker');
      commitOnTask(world, t, { RED: 'verify fails while this file exists\n' }, 'Add the marker');
      world.cli('verify', 'set', '--repo', world.repo, 'test ! -f RED');
      return t;
    },
    async run(page, { world, shot, seeded }) {
      const mainBefore = world.git('rev-parse', 'main').trim();
      await addFromReview(page, 'Add a marker');
      await nav(page, 'Merge queue').click();
      world.cli('settings', 'set', 'runner.enabled', 'true');
      const entry = page.getByRole('list', { name: 'Queued entries' }).getByRole('listitem', { name: 'Add a marker' });
      await entry.getByLabel('State').filter({ hasText: 'parked' }).waitFor({ timeout: 60_000 });
      await entry.getByText('verification failed: test ! -f RED exited 1').waitFor();
      await shot('merge-queue-parked');
      assert(world.git('rev-parse', 'main').trim() === mainBefore, 'main did not move');
      // Send back: a fix run whose developer is asked to merge main and make verify pass.
      world.cli('settings', 'set', 'runner.enabled', 'false'); // the fix run waits, so its start is seen
      await entry.getByRole('button', { name: 'Send back' }).click();
      await page.getByRole('status').filter({ hasText: 'Sent “Add a marker” back to the developer' }).waitFor();
      await entry.getByLabel('State').filter({ hasText: 'sent back' }).waitFor();
      assert(world.show(seeded.id).status === 'pending', `task back in the queue (${world.show(seeded.id).status})`);
      const before = received(world, seeded.worktree).length;
      world.cli('settings', 'set', 'runner.enabled', 'true');
      await until(
        'the fix run developer',
        () => received(world, seeded.worktree).slice(before).some((r) => r.role === 'developer' && r.prompt.includes('git merge main') && r.prompt.includes('verification failed: test ! -f RED exited 1')),
        120_000,
      );
      // The mock leaves RED: the task's own gate fails it; the entry stays sent back, main untouched.
      await until('the fix run to end', () => ['done', 'failed'].includes(world.show(seeded.id).status), 120_000);
      assert(world.git('rev-parse', 'main').trim() === mainBefore, 'main still did not move');
    },
  },
  'settings-verify-suggestion': {
    seed(world) {
      fs.writeFileSync(path.join(world.repo, 'go.mod'), 'module example.com/demo\n\ngo 1.22\n');
      world.git('add', 'go.mod');
      git(world.repo, 'commit', '-q', '-m', 'Add go.mod');
      return {};
    },
    async run(page, { world, shot }) {
      await nav(page, 'Settings').click();
      const repo = page.getByRole('textbox', { name: `Verify command of ${world.repo}`, exact: true });
      await page.locator('[aria-label="Verify commands"]').getByText('Suggested:').first().waitFor();
      await page.getByText('(from go.mod)').scrollIntoViewIfNeeded();
      await shot('settings-verify-suggestion');
      // Shown, never applied: nothing is stored until the user clicks "Use it".
      assert(world.cli('verify', 'get', '--repo', world.repo).startsWith('no verify command set'), 'nothing stored before "Use it"');
      assert((await repo.inputValue()) === '', 'the field stays empty');
      await page.getByRole('button', { name: 'Use it' }).click();
      await page.getByRole('status').filter({ hasText: `Verify command of ${world.repo}: go test ./...` }).waitFor();
      assert(world.cli('verify', 'get', '--repo', world.repo).trim() === 'go test ./...', 'the suggestion is stored once chosen');
      // A bad command is refused with one line, and what was stored stays.
      await repo.fill('x'.repeat(5000));
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: 'longer than 4096 bytes' }).waitFor();
      assert(world.cli('verify', 'get', '--repo', world.repo).trim() === 'go test ./...', 'a refused command changes nothing');
      await page.getByRole('button', { name: 'Remove', exact: true }).click();
      await page.getByRole('status').filter({ hasText: `Removed the verify command of ${world.repo}.` }).waitFor();
      await page.getByText('Suggested:').first().waitFor();
    },
  },
};

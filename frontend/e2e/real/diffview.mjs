// The diff view against the real backend (issue 40): the review keys over a
// three-file diff without the mouse, and the unsent review (a range comment, a
// viewed mark, the side-by-side layout) back after a reload.
import fs from 'node:fs';
import path from 'node:path';
import { assert } from '../harness.mjs';
import { nav, openTask, until } from './helpers.mjs';
import { commitOnTask, doneTask, open, received } from './review.mjs';

/** 30 lines of Go; the task changes lines 2 and 25 (two hunks). */
const config = (a, b) => ['package loader', '', ...Array.from({ length: 28 }, (_, i) => `const K${i + 3} = ${i + 3}`)].map((l, i) => (i === 1 ? a : i === 24 ? b : l)).join('\n') + '\n';

/** A task whose diff has three files: loader/alias.go (new), loader/config.go (two hunks), the mock's file. */
function seedThree(world) {
  fs.mkdirSync(path.join(world.repo, 'loader'), { recursive: true });
  fs.writeFileSync(path.join(world.repo, 'loader', 'config.go'), config('', 'const K25 = 25'));
  world.git('add', 'loader/config.go');
  world.git('commit', '-q', '-m', 'Add the loader config');
  const t = doneTask(world, 'Split the loader');
  commitOnTask(world, t, { 'loader/alias.go': 'package loader\n\n// Load is the old name.\nvar Load = LoadSettings\n', 'loader/config.go': config('// Settings defaults.', 'const K25 = 250 // raised') }, 'Add the alias, tune the config');
  return t;
}

/** 60 lines of Go; the task changes lines 2 and 25: unchanged lines between the hunks (6-21) and after the last (29-60). */
const long = (a, b) => ['package loader', '', ...Array.from({ length: 58 }, (_, i) => `const K${i + 3} = ${i + 3}`)].map((l, i) => (i === 1 ? a : i === 24 ? b : l)).join('\n') + '\n';

/** A task whose diff changes loader/config.go (60 lines, two hunks) and the mock's file. */
function seedLong(world) {
  fs.mkdirSync(path.join(world.repo, 'loader'), { recursive: true });
  fs.writeFileSync(path.join(world.repo, 'loader', 'config.go'), long('', 'const K25 = 25'));
  world.git('add', 'loader/config.go');
  world.git('commit', '-q', '-m', 'Add the loader config');
  const t = doneTask(world, 'Tune the loader');
  commitOnTask(world, t, { 'loader/config.go': long('// Settings defaults.', 'const K25 = 250 // raised') }, 'Tune the config');
  return t;
}

/** The task's unsent review as Go stores it (ReviewService.Draft). */
const storedDraft = (page, id) => page.evaluate((id) => window.go.app.ReviewService.Draft(id), id);

/** Scrolls the virtualized list to its end (the rows there are drawn then). */
const toEnd = (list) =>
  list.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
    el.dispatchEvent(new Event('scroll'));
  });

const selected = (page) => page.getByRole('list', { name: 'Changed files' }).locator('button[aria-current="true"]');
const viewed = (page, file) => page.getByRole('checkbox', { name: `Viewed ${file}` });

export const diffViewFlows = {
  'diffview-keyboard': {
    seed: seedThree,
    async run(page, { shot, seeded }) {
      // No mouse: the screen by its shortcut, the task by the keyboard's select, then Tab into the screen.
      await page.keyboard.press('Control+5');
      const pick = page.getByRole('combobox', { name: 'Task to review' });
      await pick.focus();
      await pick.selectOption({ label: 'Split the loader (done)' });
      const patch = page.getByRole('list', { name: 'Patch' });
      await patch.getByText('var Load = LoadSettings').waitFor();
      await page.keyboard.press('Tab');
      await page.keyboard.press('v');
      await until('alias.go viewed (v)', () => viewed(page, 'loader/alias.go').isChecked());
      await page.keyboard.press('n');
      await selected(page).filter({ hasText: 'config.go' }).waitFor();
      await patch.getByText('// Settings defaults.').waitFor();
      // Word-level change inside the modified line: "250" and the comment are marked, "const K25 =" is not.
      const marks = await patch.locator('.ln.add mark').allTextContents();
      assert(marks.some((m) => m.includes('250')) && !marks.some((m) => m.includes('K25')), `the changed words are marked (${marks})`);
      await page.keyboard.press('j');
      await patch.locator('.hrow.current[data-hunk-row="1"]').waitFor();
      await page.keyboard.press('c');
      await patch.getByRole('textbox', { name: 'Comment on config.go hunk 2' }).waitFor();
      await page.keyboard.type('Why raise it tenfold?');
      await page.keyboard.press('Escape');
      await patch.getByRole('group', { name: 'Comments' }).getByText('Why raise it tenfold?').waitFor();
      await page.keyboard.press('a');
      await until('hunk 2 chosen (a)', () => page.getByRole('checkbox', { name: 'Accept hunk 2' }).isChecked());
      await page.keyboard.press('k');
      await patch.locator('.hrow.current[data-hunk-row="0"]').waitFor();
      await page.keyboard.press('v');
      await page.keyboard.press('n');
      await selected(page).filter({ hasText: seeded.file }).waitFor();
      await page.keyboard.press('v');
      await page.keyboard.press('p');
      await selected(page).filter({ hasText: 'config.go' }).waitFor();
      await page.keyboard.press('?');
      const keys = page.getByRole('dialog', { name: 'Review keys' });
      await keys.getByText('next / previous hunk').waitFor();
      await shot('diffview-keys');
      await page.keyboard.press('?');
      await keys.waitFor({ state: 'hidden' });
      for (const f of ['loader/alias.go', 'loader/config.go', seeded.file]) assert(await viewed(page, f).isChecked(), `${f} is marked viewed`);
      await page.getByRole('button', { name: /Accept chosen \(1 file\)/ }).waitFor();
      const cr = page.getByRole('region', { name: 'Request changes' });
      await cr.getByRole('list', { name: 'Hunk comments' }).getByText('config.go hunk 2').waitFor();
      await cr.getByRole('button', { name: 'Send back (1 comment)' }).waitFor();
    },
  },
  'diffview-draft': {
    dark: true,
    seed: seedThree,
    async run(page, { shot, world }) {
      await open(page, 'Split the loader', 'var Load = LoadSettings');
      const patch = page.getByRole('list', { name: 'Patch' });
      await patch.getByRole('button', { name: 'Line 3', exact: true }).click();
      await patch.getByRole('button', { name: 'Line 4', exact: true }).click({ modifiers: ['Shift'] });
      await page.keyboard.press('c');
      await patch.getByRole('textbox', { name: 'Comment on alias.go:3-4' }).waitFor();
      await page.keyboard.type('Say why the old name stays');
      await page.keyboard.press('Escape');
      await page.getByRole('checkbox', { name: 'Viewed', exact: true }).check();
      await page.getByRole('list', { name: 'Changed files' }).getByRole('button', { name: /config\.go/ }).click();
      await patch.getByText('// Settings defaults.').waitFor();
      await shot('diffview-unified');
      await page.getByRole('region', { name: 'Request changes' }).getByText('Draft saved').waitFor();
      await page.getByRole('checkbox', { name: 'Side by side' }).check();
      await page.getByRole('list', { name: 'Patch side by side' }).getByText('// Settings defaults.').waitFor();
      await shot('diffview-split');
      await until('the layout stored', () => world.cli('settings', 'get', 'ui.diffView').includes('split'));
      // A reload: the comment, the viewed mark and the layout are back (Draft, DiffView).
      await page.reload();
      await page.waitForFunction(() => !!window.go?.app?.TaskService, null, { timeout: 30_000 });
      await nav(page, 'Review').click();
      await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: 'Split the loader (done)' });
      const side = page.getByRole('list', { name: 'Patch side by side' });
      await side.getByText('var Load = LoadSettings').waitFor();
      await side.getByRole('group', { name: 'Comments' }).getByText('Say why the old name stays').waitFor();
      assert(await viewed(page, 'loader/alias.go').isChecked(), 'alias.go is still viewed');
      assert(!(await viewed(page, 'loader/config.go').isChecked()), 'config.go is not viewed');
      await page.getByRole('region', { name: 'Request changes' }).getByRole('button', { name: 'alias.go:3-4' }).waitFor();
      await shot('diffview-restored');
    },
  },
  'diffview-expand-comment': {
    seed: seedLong,
    async run(page, { world, shot, seeded }) {
      await open(page, 'Tune the loader', '// Settings defaults.');
      const patch = page.getByRole('list', { name: 'Patch' });
      // A line revealed between the hunks (6-21) takes a comment.
      await patch.getByRole('button', { name: '⋯ 16 unchanged lines' }).click();
      await patch.getByText('const K10 = 10').waitFor();
      await patch.getByRole('button', { name: 'Line 10', exact: true }).click();
      await page.keyboard.press('c');
      await patch.getByRole('textbox', { name: 'Comment on config.go:10' }).waitFor();
      await page.keyboard.type('K10 is never read');
      await page.keyboard.press('Escape');
      // The unchanged lines after the last hunk (29-60) expand too, and take a range comment.
      const tail = patch.getByRole('button', { name: '⋯ 32 unchanged lines' });
      await until('the gap after the last hunk drawn', async () => (await toEnd(patch), await tail.isVisible()));
      await tail.click();
      await until('line 60 drawn', async () => (await toEnd(patch), await patch.getByText('const K60 = 60').isVisible()));
      const gutter = await patch.locator('.ln').filter({ hasText: 'const K60 = 60' }).locator('.num').allTextContents();
      assert(gutter.join(',') === '60,60', `the last line is numbered 60 on both sides (${gutter})`);
      await patch.getByRole('button', { name: 'Line 45', exact: true }).click();
      await patch.getByRole('button', { name: 'Line 47', exact: true }).click({ modifiers: ['Shift'] });
      await page.keyboard.press('c');
      await patch.getByRole('textbox', { name: 'Comment on config.go:45-47' }).waitFor();
      await page.keyboard.type('Group these three');
      await page.keyboard.press('Escape');
      await patch.getByRole('group', { name: 'Comments' }).getByText('Group these three').waitFor();
      await shot('diffview-expanded');
      const cr = page.getByRole('region', { name: 'Request changes' });
      await cr.getByRole('button', { name: 'Send back (2 comments)' }).click();
      await page.getByRole('status').filter({ hasText: 'Fix run 1 queued' }).waitFor();
      // The developer of the fix run gets both, naming the file and the new-side lines.
      const before = received(world, seeded.worktree).filter((g) => !g.prompt.includes('## Human review')).length;
      world.cli('settings', 'set', 'runner.enabled', 'true');
      await until('the fix run to finish', () => world.show(seeded.id).status === 'done', 120_000);
      const got = received(world, seeded.worktree).slice(before);
      assert(got.length > 0 && got[0].role === 'developer', `the fix run starts at the developer (${got.map((g) => g.role)})`);
      for (const [where, text] of [
        ['line 10', 'K10 is never read'],
        ['lines 45-47', 'Group these three'],
      ]) {
        const re = new RegExp('`loader/config\\.go`, ' + where + ':\\n\\s*' + text);
        assert(re.test(got[0].prompt), `the developer's prompt names loader/config.go, ${where} with "${text}":\n${got[0].prompt}`);
      }
    },
  },
  'diffview-keys-at-once': {
    seed: seedThree,
    async run(page) {
      // The screen opened from the task pane: focus is on nothing in it (the button that opened it is gone).
      await openTask(page, 'Split the loader');
      await page.getByRole('button', { name: 'Review changes' }).click();
      const patch = page.getByRole('list', { name: 'Patch' });
      await patch.getByText('var Load = LoadSettings').waitFor();
      await page.keyboard.press('n');
      await selected(page).filter({ hasText: 'config.go' }).waitFor();
      await patch.getByText('// Settings defaults.').waitFor();
      // Not while typing in a field: the general comment takes the letters.
      const general = page.getByRole('region', { name: 'Request changes' }).getByRole('textbox', { name: 'General comment' });
      await general.click();
      await page.keyboard.type('np');
      assert((await general.inputValue()) === 'np', 'the letters went into the field');
      await selected(page).filter({ hasText: 'config.go' }).waitFor();
      // Not while a dialog is open.
      await page.getByRole('button', { name: 'Accept…' }).click();
      const dlg = page.getByRole('dialog', { name: "Accept the task's work" });
      await dlg.getByLabel('What the accept makes').waitFor();
      await dlg.getByRole('button', { name: 'Cancel' }).focus();
      await page.keyboard.press('p');
      await page.keyboard.press('v');
      await dlg.getByRole('button', { name: 'Cancel' }).click();
      await dlg.waitFor({ state: 'detached' });
      await selected(page).filter({ hasText: 'config.go' }).waitFor();
      assert(!(await viewed(page, 'loader/config.go').isChecked()), 'v did nothing under the dialog');
      await page.keyboard.press('p');
      await selected(page).filter({ hasText: 'alias.go' }).waitFor();
    },
  },
  'diffview-accept-forgets': {
    seed: seedThree,
    async run(page, { world, seeded }) {
      await open(page, 'Split the loader', 'var Load = LoadSettings');
      await viewed(page, 'loader/alias.go').check();
      await page.getByRole('checkbox', { name: 'Accept loader/config.go' }).check();
      await page.getByRole('region', { name: 'Request changes' }).getByText('Draft saved').waitFor();
      const d = await storedDraft(page, seeded.id);
      assert(d.viewed.length === 1 && d.chosen.length === 1, `the draft holds the mark and the choice (${JSON.stringify(d)})`);
      await page.getByRole('button', { name: 'Accept…' }).click();
      const dlg = page.getByRole('dialog', { name: "Accept the task's work" });
      await dlg.getByLabel('What the accept makes').waitFor();
      await dlg.getByRole('button', { name: 'Accept', exact: true }).click();
      await dlg.getByRole('status').filter({ hasText: /Accepted into/ }).waitFor({ timeout: 30_000 });
      await dlg.getByRole('button', { name: 'Close' }).click();
      assert(world.show(seeded.id).status === 'accepted', 'task accepted');
      // The screen holds none of it now, and a mark made after the accept saves only itself.
      await until('alias.go unviewed on screen', async () => !(await viewed(page, 'loader/alias.go').isChecked()));
      await viewed(page, 'loader/config.go').check();
      const after = await until('the new mark saved', async () => {
        const x = await storedDraft(page, seeded.id);
        return x.viewed.length ? x : null;
      });
      assert(after.viewed.map((v) => v.path).join() === 'loader/config.go' && !after.chosen.length, `only the new mark is stored (${JSON.stringify(after)})`);
      // Reopened after a reload: nothing of the accepted review is back.
      await page.reload();
      await page.waitForFunction(() => !!window.go?.app?.TaskService, null, { timeout: 30_000 });
      await nav(page, 'Review').click();
      await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: 'Split the loader (accepted)' });
      await page.getByRole('list', { name: 'Patch' }).getByText('var Load = LoadSettings').waitFor();
      assert(!(await viewed(page, 'loader/alias.go').isChecked()), 'alias.go is not viewed after the reload');
    },
  },
};

// The diff view against the real backend (issue 40): the review keys over a
// three-file diff without the mouse, and the unsent review (a range comment, a
// viewed mark, the side-by-side layout) back after a reload.
import fs from 'node:fs';
import path from 'node:path';
import { assert } from '../harness.mjs';
import { nav, until } from './helpers.mjs';
import { commitOnTask, doneTask, open } from './review.mjs';

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
};

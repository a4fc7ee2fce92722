// Helpers of the browser flows: the screens' landmarks by role and label,
// polling until the UI or the real state shows what a flow waits for, and what
// Go says (the goldens its tests write). A leaf module: the flow files import
// it, it imports none of them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const goldens = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/lib/backend');
const readGolden = (name) => JSON.parse(fs.readFileSync(path.join(goldens, name), 'utf8'));

/** The sentence a golden call was refused with (calls-golden.json, app/calls_golden_test.go); <repo> stands for the working directory. */
export function goldenRefusal(name, repo = '<repo>') {
  const err = readGolden('calls-golden.json').find((c) => c.name === name)?.outcome.err;
  if (!err) throw new Error(`no golden refusal "${name}"`);
  return err.replaceAll('<repo>', repo);
}

/** The message Go gives a settings field for the settings golden case that matches (settings-golden.json). */
export function goldenFieldError(matches, field) {
  const msg = readGolden('settings-golden.json').find((c) => matches(c.settings))?.errors.find((e) => e.path === field)?.message;
  if (!msg) throw new Error(`no golden error for ${field}`);
  return msg;
}
export const nav = (page, name) => page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });
export const taskList = (page) => page.getByRole('region', { name: 'Tasks' });
/** The row of the task titled `title` (optionally in status `status`). */
export const row = (page, title, status) => taskList(page).locator(status ? `li[data-status="${status}"]` : 'li').filter({ hasText: title });
export const pendingTitles = async (page) => (await taskList(page).locator('li[data-status="pending"] .title').allInnerTexts()).map((s) => s.trim());

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


/** Opens the task titled title in its pane; resolves to the pane. */
export const openTask = async (page, title) => {
  await row(page, title).getByRole('button').first().click();
  const pane = page.getByRole('article', { name: 'Task' });
  await pane.waitFor();
  return pane;
};

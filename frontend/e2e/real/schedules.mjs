// Schedules and usage limits in the window (issue 21), against the real
// backend: a recurring schedule made in the New task form (its next fires
// previewed, a bad cron expression refused with the CLI's sentence) is
// listed on the Schedules screen with its next fire as the CLI reports it,
// runs now, and is deleted; a one-off start time reaches the store; a tool
// paused by a real usage limit (the mock tool's limit marker, run by the
// headless runner) shows with its reset time and Resume ends the pause.
import { assert } from '../harness.mjs';
import { nav, until } from './helpers.mjs';

const hhmm = (iso) => new Date(iso).toISOString().slice(11, 16);

export const scheduleFlows = {
  schedules: {
    async run(page, { world, shot }) {
      const form = page.getByRole('form', { name: 'New task' });
      await form.getByRole('textbox', { name: /Prompt/ }).fill('Update the dependencies and run the tests.');
      await form.getByRole('textbox', { name: /Title/ }).fill('Nightly deps');
      await form.getByRole('radio', { name: 'Repeat…' }).check();
      // Repeat fills in the machine's zone (asked for only now, not at the form's mount).
      const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      const shown = await form.getByRole('combobox', { name: 'Time zone' }).inputValue();
      assert(shown === zone, `Repeat shows the machine's zone (${shown}, want ${zone})`);
      // A bad expression is refused with the sentence the CLI prints.
      await form.getByRole('combobox', { name: 'Repeat' }).selectOption('custom');
      await form.getByRole('textbox', { name: 'Cron expression' }).fill('0 2 * *');
      await form.getByRole('combobox', { name: 'Time zone' }).fill('UTC');
      const bad = 'Invalid cron expression "0 2 * *": expected exactly 5 fields, found 4: [0 2 * *] (expected five fields: minute hour day-of-month month day-of-week, or @daily, @every 1h).';
      await form.getByRole('alert').filter({ hasText: bad }).waitFor();
      let cli = '';
      try {
        world.cli('add', '--every', '0 2 * *', 'x');
      } catch (e) {
        cli = e.message;
      }
      assert(cli.includes(bad), `the CLI says the same: ${cli}`);
      await form.getByRole('button', { name: 'Add schedule' }).click();
      assert(JSON.parse(world.cli('schedules', '--json')).length === 0, 'a refused schedule was stored');
      // Weekdays at 02:00 UTC: the next three fires are previewed.
      await form.getByRole('combobox', { name: 'Repeat' }).selectOption('weekdays');
      await form.getByLabel('At', { exact: true }).fill('02:00');
      assert((await form.getByRole('textbox', { name: 'Cron expression' }).inputValue()) === '0 2 * * 1-5', 'the preset wrote the expression');
      const next = form.getByLabel('Next fires');
      await next.waitFor();
      await until('three fires previewed', async () => (await next.innerText()).split(' · ').length === 3);
      assert((await next.innerText()).split(' · ').every((s) => s.endsWith('02:00')), `fires at 02:00: ${await next.innerText()}`);
      await form.getByText('Runs weekdays at 02:00 (UTC).').waitFor();
      await shot('schedule-form');
      await form.getByRole('button', { name: 'Add schedule' }).click();
      await form.getByRole('status').filter({ hasText: /Scheduled “Nightly deps”: next run .* 02:00 \(UTC\)/ }).waitFor();
      const [sc] = JSON.parse(world.cli('schedules', '--json'));
      assert(sc && sc.cron === '0 2 * * 1-5' && sc.tz === 'UTC' && hhmm(sc.next_fire) === '02:00' && sc.template.title === 'Nightly deps', `stored ${JSON.stringify(sc)}`);
      assert(world.list().length === 0, 'a schedule queued a task before its fire');

      // Listed with its next fire; run now queues a task; delete keeps it.
      await nav(page, 'Schedules').click();
      const screen = page.getByRole('region', { name: 'Schedules' });
      const row = screen.getByRole('row', { name: 'Nightly deps' });
      await row.waitFor();
      assert((await row.innerText()).includes('weekdays at 02:00'), 'cron in words');
      const when = new Date(sc.next_fire).toLocaleString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).replace(',', '');
      const nextCell = await row.locator('[data-col="next"]').innerText();
      assert(nextCell.includes(when) && nextCell.includes('02:00'), `next fire cell ${nextCell}, want ${when} 02:00`);
      await shot('schedules');
      await screen.getByRole('button', { name: 'Run Nightly deps now' }).click();
      await screen.getByRole('status').filter({ hasText: 'Queued “Nightly deps” from “Nightly deps”.' }).waitFor();
      const queued = world.list();
      assert(queued.length === 1 && queued[0].status === 'pending' && queued[0].prompt === 'Update the dependencies and run the tests.', `run now queued ${JSON.stringify(queued)}`);
      // Edit: a new expression is previewed and saved; the recent fires list the run now.
      await screen.getByRole('button', { name: 'Edit Nightly deps' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit “Nightly deps”' });
      await dialog.getByRole('list', { name: 'Recent fires' }).getByText(/queued a task — run now from the window/).waitFor();
      await dialog.getByRole('textbox', { name: 'Cron expression' }).fill('0 9 * * 1-5');
      await dialog.getByText('Runs weekdays at 09:00 (UTC).').waitFor();
      await dialog.getByRole('button', { name: 'Save schedule' }).click();
      await dialog.waitFor({ state: 'detached' });
      await row.getByText('weekdays at 09:00').waitFor();
      const [edited] = JSON.parse(world.cli('schedules', '--json'));
      assert(edited.cron === '0 9 * * 1-5' && hhmm(edited.next_fire) === '09:00', `edited ${JSON.stringify(edited)}`);
      await screen.getByRole('button', { name: 'Delete Nightly deps' }).click();
      await page.getByRole('button', { name: 'Delete schedule' }).click();
      await screen.getByText(/No recurring tasks/).waitFor();
      assert(JSON.parse(world.cli('schedules', '--json')).length === 0, 'the schedule was deleted');
      assert(world.list().length === 1, 'the task it queued was kept');

      // A one-off start time: listed as scheduled for later, stored as not_before.
      await page.getByRole('button', { name: 'New schedule…' }).click();
      await form.getByRole('textbox', { name: /Prompt/ }).fill('Tag the release.');
      await form.getByRole('radio', { name: 'Start at…' }).check();
      const at = new Date(Date.now() + 2 * 86_400_000);
      const local = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}T03:00`;
      await form.getByLabel(/your local time/).fill(local);
      await form.getByRole('button', { name: 'Add task' }).click();
      await form.getByRole('status').filter({ hasText: /It starts at/ }).waitFor();
      const t = world.list().find((x) => x.prompt === 'Tag the release.');
      const expected = await page.evaluate((v) => new Date(v).toISOString(), local);
      assert(t && new Date(t.not_before).toISOString() === expected, `not_before ${t?.not_before}, want ${expected}`);
      await nav(page, 'Schedules').click();
      await page.getByRole('list', { name: 'Tasks scheduled for later' }).getByRole('button', { name: 'Tag the release.' }).waitFor();
    },
  },
  'usage limit': {
    seed(world) {
      // The developer hits a usage limit that resets in an hour: the mock tool is paused.
      const id = world.add('Limited work.\n[[mock-limit developer=1]]', '--title', 'Limited work');
      world.runQueue();
      const limits = JSON.parse(world.cli('limits', '--json'));
      assert(limits.length === 1 && limits[0].tool === 'mock', `limits ${JSON.stringify(limits)}`);
      return { id, until: limits[0].until };
    },
    async run(page, { world, shot, seeded }) {
      assert(world.show(seeded.id).status === 'pending', 'the limited task waits, not failed');
      const until = new Date(seeded.until);
      // The header names the clock time, and the date too when the pause
      // ends on another day (an hour ahead of 23:xx).
      const text = await page.evaluate((u) => {
        const d = new Date(u);
        const now = new Date();
        const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
        const sameDay = d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
        const when = sameDay ? hm : `${d.toLocaleString('en-US', { month: 'short' })} ${d.getDate()} ${hm}`;
        return `mock paused until ${when} (usage limit)`;
      }, seeded.until);
      const header = page.locator('header');
      await header.getByText(text).waitFor();
      assert(until.getTime() > Date.now() + 50 * 60_000, `reset ${seeded.until} is about an hour ahead`);
      await shot('usage-limit');
      await header.getByRole('button', { name: 'Resume mock' }).click();
      await header.getByText(text).waitFor({ state: 'detached' });
      assert(JSON.parse(world.cli('limits', '--json')).length === 0, 'the pause ended in the store');
    },
  },
};

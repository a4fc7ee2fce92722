// Requests from outside the window (second launches) and the harness itself.
import net from 'node:net';
import { assert } from '../harness.mjs';
import { goldenRefusal, nav, until } from './helpers.mjs';

/** The port-in-use flow's listener on the port the app is offered first. */
const taken = { port: 0, server: null };

export const windowFlows = {
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
      await page.getByRole('alert').filter({ hasText: goldenRefusal('get: unknown task') }).waitFor();
      await shot('desktop-review-unknown');
      // Only one app: the second launches left no process of their own.
      assert(world.list().length === 1, 'no task was added by the launches');
    },
  },
  // The harness itself: a port already in use is replaced by another.
  'port-in-use': {
    firstPort() {
      return taken.port;
    },
    async seed() {
      const server = net.createServer((c) => c.end('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello'));
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      taken.port = server.address().port;
      taken.server = server;
    },
    async run(page, { app }) {
      taken.server.close();
      assert(app.port !== taken.port, `the harness picked another port than the taken ${taken.port}`);
      await page.getByRole('textbox', { name: /Prompt/ }).waitFor();
    },
  },
};

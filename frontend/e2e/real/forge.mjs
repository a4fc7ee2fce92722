// Push and pull request flows against the real backend (issue 41): a task the
// mock finished is pushed from the Review screen to a bare repository over
// file://, pushed again (nothing sent), and refused an Open pull request with
// Go's sentence (file:// is on no forge); the New task form's "From an issue"
// shows Go's refusal of an address on no forge and stores nothing. (No
// loopback fake forge runs here: backend/forge/forgetest is an in-process
// httptest server the Go tests use, with no process to seed a world with.)
import path from 'node:path';
import { assert } from '../harness.mjs';
import { git } from './app.mjs';
import { nav, until } from './helpers.mjs';

export const forgeFlows = {
  'forge-push-from-review': {
    seed(world) {
      const id = world.add('Add a greeting: write the mock file', '--title', 'Add a greeting');
      world.runQueue();
      const t = world.show(id);
      assert(t.status === 'done', `seeded task is done (${t.status}: ${t.error ?? ''})`);
      const bare = path.join(world.dir, 'remote.git');
      git(world.dir, 'init', '-q', '--bare', bare);
      world.git('remote', 'add', 'origin', `file://${bare}`);
      return { id, head: t.head_sha, bare };
    },
    async run(page, { world, shot, seeded }) {
      await nav(page, 'Review').click();
      await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: 'Add a greeting (done)' });
      await page.getByRole('button', { name: 'Push' }).click();
      const pushedNotice = page.getByRole('status').filter({ hasText: "Pushed the task's branch to origin/" });
      await pushedNotice.waitFor();
      const branch = (await pushedNotice.innerText()).match(/origin\/(\S+)\.$/)[1];
      const onRemote = () => git(seeded.bare, 'for-each-ref', '--format=%(objectname)', `refs/heads/${branch}`).trim();
      assert(onRemote() === seeded.head, `the remote's ${branch} is the task's head ${seeded.head} (got ${onRemote()})`);
      const panel = page.getByRole('region', { name: 'Pull request' });
      await panel.getByText('no pull request opened').waitFor();
      await shot('forge-pushed');

      // Again: nothing to send, said so.
      await page.getByRole('button', { name: 'Push' }).click();
      await page.getByRole('status').filter({ hasText: `origin/${branch} already has the task's commits: nothing sent.` }).waitFor();

      // A file:// remote is on no forge: Go's one line, in the dialog, nothing opened.
      await page.getByRole('button', { name: 'Open pull request…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Open pull request' });
      await dialog.getByRole('option', { name: /^origin — file:\/\// }).waitFor({ state: 'attached' });
      await dialog.getByRole('button', { name: 'Open pull request' }).click();
      const refusal = dialog.getByRole('alert');
      await refusal.waitFor();
      const said = await refusal.innerText();
      assert(said.includes('is not on a forge Boof Runner knows'), `Go's refusal is shown (${said})`);
      await shot('forge-open-refused');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await until('the task is still done with no pull request', () => world.show(seeded.id).status === 'done');
    },
  },

  'forge-task-from-issue-refused': {
    async run(page, { world, shot }) {
      await page.getByRole('checkbox', { name: /From an issue/ }).check();
      await page.getByRole('textbox', { name: /Issue URL/ }).fill('https://example.org/me/app/issues/1');
      await page.getByRole('button', { name: 'Add task from issue' }).click();
      const alert = page.getByRole('form', { name: 'New task' }).getByRole('alert');
      await alert.waitFor();
      const said = await alert.innerText();
      assert(said.includes('is not on a forge Boof Runner knows'), `Go's refusal is shown (${said})`);
      await shot('forge-issue-refused');
      assert(world.list().length === 0, 'no task was stored');
    },
  },
};

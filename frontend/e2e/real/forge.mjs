// Push and pull request flows against the real backend (issue 41): a task the
// mock finished is pushed from the Review screen to a bare repository over
// file://, pushed again (nothing sent), and refused an Open pull request with
// Go's sentence (file:// is on no forge); the New task form's "From an issue"
// shows Go's refusal of an address on no forge and stores nothing. Against
// the fake forge run as a process on loopback (backend/forge/forgetest's
// TestServe in its compiled test binary, build/bin/fakeforge.test beside the
// app binary): the forge token stored from Settings (never shown back), then
// Push → Open pull request → its state and checks → Refresh → Close, all
// from the window.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { assert } from '../harness.mjs';
import { git } from './app.mjs';
import { nav, until } from './helpers.mjs';

/**
 * Starts the fake forge (GitHub or GitLab: its git over HTTP and its API) on
 * loopback, in the world's folder; resolves to its addresses ({ url, host, api,
 * clone }), control(what, form) (its JSON answer, null for none), pr(n) (null when it has none),
 * requests() (the API requests it served) and stop(). The binary: `go test -c -o build/bin/fakeforge.test ./backend/forge/forgetest`.
 */
export async function startFakeForge(world, token, kind = 'github') {
  const bin = path.join(path.dirname(path.resolve(process.argv[2])), 'fakeforge.test');
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: go test -c -o build/bin/fakeforge.test ./backend/forge/forgetest`);
  const tmp = path.join(world.dir, 'forge');
  fs.mkdirSync(tmp);
  const child = spawn(bin, ['-test.run', '^TestServe$', '-test.timeout', '0'], {
    cwd: world.dir,
    env: { ...process.env, TMPDIR: tmp, BOOF_FAKE_FORGE: kind, BOOF_FAKE_FORGE_TOKEN: token },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  const first = await Promise.race([
    new Promise((resolve) => readline.createInterface({ input: child.stdout }).once('line', resolve)),
    exited.then(() => {
      throw new Error('the fake forge exited at start');
    }),
  ]);
  child.stdout.resume();
  const addr = JSON.parse(first);
  const control = async (what, form) => {
    const res = await fetch(`${addr.control}/${what}`, { method: 'POST', body: new URLSearchParams(form) });
    if (!res.ok) throw new Error(`fake forge ${what}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
  const pr = async (n) => {
    const res = await fetch(`${addr.control}/pr?n=${n}`);
    return res.ok ? res.json() : null;
  };
  const requests = async () => (await fetch(`${addr.control}/requests`)).json();
  return {
    ...addr,
    control,
    pr,
    requests,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * A done task ("Add a greeting") in a repository whose origin is a fake forge of kind, known
 * to the settings' forge.hosts; main pushed there too when push is set. Returns { id, token, ff }.
 */
export async function seedForgeTask(world, token, kind, { push = false } = {}) {
  const id = world.add('Add a greeting: write the mock file', '--title', 'Add a greeting');
  world.runQueue();
  const t = world.show(id);
  assert(t.status === 'done', `seeded task is done (${t.status}: ${t.error ?? ''})`);
  const ff = await startFakeForge(world, token, kind);
  world.git('remote', 'add', 'origin', ff.clone);
  if (push) world.git('push', '-q', 'origin', 'main');
  world.cli('settings', 'set', 'forge.hosts', JSON.stringify([{ host: ff.host, kind, api: ff.api }]));
  return { id, token, ff };
}

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

  'forge-pull-request-lifecycle': {
    async seed(world) {
      const token = 'ghp_e2eFakeForgeToken0123456789abcdefABCD';
      return seedForgeTask(world, token, 'github');
    },
    async run(page, { world, shot, seeded }) {
      const { ff, token } = seeded;
      try {
        // The token, from Settings: a bad one refused in Go's words, a good one stored and never shown back.
        await nav(page, 'Settings').click();
        const forges = page.getByRole('form', { name: 'Forge tokens' });
        await forges.getByRole('textbox', { name: 'Host' }).fill(ff.host);
        const tokenField = forges.getByLabel('Token');
        await tokenField.fill('two words');
        await forges.getByRole('button', { name: 'Store token' }).click();
        await forges.getByRole('alert').filter({ hasText: /^Nothing stored: a token is one word/ }).waitFor();
        await tokenField.fill(token);
        await forges.getByRole('button', { name: 'Store token' }).click();
        const stored = forges.getByRole('status').filter({ hasText: `Stored the token of ${ff.host}` });
        await stored.waitFor();
        const said = await stored.innerText();
        assert((await tokenField.inputValue()) === '', 'the token field is emptied once stored');
        assert(!(await page.content()).includes(token), 'the token is nowhere on the page');
        const file = said.match(/ in (\/\S+forge-tokens\.json),/)?.[1];
        if (file) assert((fs.statSync(file).mode & 0o777) === 0o600, `${file} is 0600`);
        else assert(said.includes('system keyring'), `where the token went is said (${said})`);
        await forges.scrollIntoViewIfNeeded();
        await shot('forge-token-stored');

        // Push, then open the pull request on the fake forge.
        await nav(page, 'Review').click();
        await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: 'Add a greeting (done)' });
        await page.getByRole('button', { name: 'Push' }).click();
        await page.getByRole('status').filter({ hasText: "Pushed the task's branch to origin/" }).waitFor();
        await page.getByRole('button', { name: 'Open pull request…' }).click();
        const dialog = page.getByRole('dialog', { name: 'Open pull request' });
        await dialog.getByRole('button', { name: 'Open pull request' }).click();
        await dialog.waitFor({ state: 'detached', timeout: 30_000 });
        const panel = page.getByRole('region', { name: 'Pull request' });
        await panel.getByText('Pull request #1').waitFor();
        await panel.getByLabel('State').filter({ hasText: 'open' }).waitFor();
        await panel.getByLabel('Review decision').filter({ hasText: 'no review yet' }).waitFor();
        assert((await ff.pr(1)).state === 'open', 'the forge has pull request #1 open');
        await shot('forge-pr-open');

        // The forge's side moves on: CI passes and a reviewer approves; Refresh reads it.
        await ff.control('checks', { n: '1', name: 'ci/build', state: 'success' });
        await ff.control('review', { n: '1', user: 'alice', state: 'APPROVED', body: 'Looks good' });
        await panel.getByRole('button', { name: 'Refresh' }).click();
        await panel.getByRole('list', { name: 'Checks' }).getByText('ci/build').waitFor();
        await panel.getByRole('list', { name: 'Checks' }).locator('li.success').waitFor();
        await panel.getByLabel('Review decision').filter({ hasText: 'approved' }).waitFor();
        await shot('forge-pr-synced');

        // Close from the window: closed on the forge, the task unchanged.
        await panel.getByRole('button', { name: 'Close…' }).click();
        await page.getByRole('dialog', { name: 'Close pull request #1?' }).getByRole('button', { name: 'Close it' }).click();
        await panel.getByLabel('State').filter({ hasText: 'closed' }).waitFor();
        await until('the forge to have pull request #1 closed', async () => (await ff.pr(1)).state === 'closed');
        assert(world.show(seeded.id).status === 'done', 'the task is unchanged');
        await shot('forge-pr-closed');

        // Forget the token from Settings: the token file no longer holds it.
        await nav(page, 'Settings').click();
        await forges.getByRole('textbox', { name: 'Host' }).fill(ff.host);
        await forges.getByRole('button', { name: 'Forget token' }).click();
        await forges.getByRole('status').filter({ hasText: `Forgot the stored token of ${ff.host}.` }).waitFor();
        if (file) assert(!fs.readFileSync(file, 'utf8').includes(token), 'the token file no longer holds the token');
      } finally {
        await ff.stop();
      }
    },
  },
};

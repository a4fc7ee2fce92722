// The real app for the browser flows: a `-tags desktop,dev` build of boof-runner
// serves the built front end (frontend/dist) on loopback with live Go bindings
// (Wails' dev server: /wails/ipc.js over a websocket), its native window hidden
// under a private Xvfb, with its own data root and git repository per flow.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts a private Xvfb; resolves to { display, pid, stop }. */
export async function startXvfb() {
  const child = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const display = await new Promise((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error('Xvfb did not start within 30 s')), 30_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^(\d+)\n/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(`:${m[1]}`);
      }
    });
    child.once('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
    child.once('error', reject);
  });
  return {
    display,
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** A loopback port nobody listens on right now (the app may still lose a race for it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Runs git in dir with a fixed identity; returns stdout. */
export function git(dir, ...args) {
  try {
    return execFileSync('git', ['-C', dir, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 << 20,
      env: { ...process.env, GIT_AUTHOR_NAME: 'E2E', GIT_AUTHOR_EMAIL: 'e2e@example.com', GIT_COMMITTER_NAME: 'E2E', GIT_COMMITTER_EMAIL: 'e2e@example.com', GIT_CONFIG_NOSYSTEM: '1' },
    });
  } catch (e) {
    throw new Error(`git ${args.slice(0, 4).join(' ')}: ${String(e.stderr || e.message).trim().slice(0, 300)}`);
  }
}

/**
 * A flow's world before the app starts: a temp dir with a data root and a git
 * repository on `main`, settings pointing every role at the mock tool, the
 * runner paused. `cli(...args)` runs the app binary's headless commands on it.
 */
export function makeWorld(bin) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'boof-e2e-'));
  const data = path.join(dir, 'data');
  const repo = path.join(dir, 'repo');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.name', 'E2E');
  git(repo, 'config', 'user.email', 'e2e@example.com');
  fs.writeFileSync(path.join(repo, 'README.md'), '# Demo\n\nA repository for the browser flows.\n');
  git(repo, 'add', 'README.md');
  git(repo, 'commit', '-q', '-m', 'Initial commit');
  const env = { ...process.env, HOME: path.join(dir, 'home'), XDG_CONFIG_HOME: path.join(dir, 'home', '.config') };
  fs.mkdirSync(env.HOME, { recursive: true });
  const cli = (...args) => {
    try {
      return execFileSync(bin, [...args, '--data-dir', data], { encoding: 'utf8', env, stdio: ['pipe', 'pipe', 'pipe'], timeout: 120_000 });
    } catch (e) {
      throw new Error(`boof-runner ${args.join(' ')}: ${String(e.stderr || e.message).trim()}`);
    }
  };
  const world = {
    dir,
    data,
    repo,
    cli,
    /** `show ID --json`, parsed. */
    show: (id) => JSON.parse(cli('show', id, '--json')),
    /** `list --json`, parsed (every status but archived). */
    list: () => JSON.parse(cli('list', '--json')),
    git: (...args) => git(repo, ...args),
    /** Adds a task with the CLI; returns its id. */
    add: (prompt, ...flags) => cli('add', '--repo', repo, ...flags, prompt).trim(),
    /** Runs the queue headless until nothing is left to do (before the app starts). */
    runQueue: () => {
      cli('settings', 'set', 'runner.enabled', 'true');
      cli('runner', '--until-idle');
      cli('settings', 'set', 'runner.enabled', 'false');
    },
  };
  cli('settings', 'set', 'workingDirectory', repo);
  for (const role of ['planner', 'refinement', 'developer', 'reviewer']) cli('settings', 'set', `roles.${role}`, '{"tool":"mock"}');
  cli('settings', 'set', 'stop.graceMs', '1000');
  cli('settings', 'set', 'runner.enabled', 'false');
  // No agent CLI runs here (the mock does the work): the first-launch screen, which would name
  // them, is dismissed; the first-run flows (setup.mjs) undo this and the working directory.
  cli('settings', 'set', 'ui.setupDismissed', 'true');
  return world;
}

/**
 * Starts the dev-tagged app on world's data root, its window hidden, serving
 * dist on a free loopback port; a port that turns out taken is replaced by
 * another (up to 5 tries). `firstPort` forces the first try (for the test of
 * that path). Resolves to { url, port, pid, log(), alive(), stop() }.
 */
export async function startApp({ bin, dist, display, world, firstPort }) {
  let lastErr;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = attempt === 0 && firstPort ? firstPort : await freePort();
    try {
      return await startOnce({ bin, dist, display, world, port });
    } catch (e) {
      lastErr = e;
      if (!e.portTaken) throw e;
    }
  }
  throw lastErr;
}

async function startOnce({ bin, dist, display, world, port }) {
  const logPath = path.join(world.dir, `app-${port}.log`);
  const logFd = fs.openSync(logPath, 'w');
  const home = path.join(world.dir, 'home');
  const run = path.join(world.dir, 'run');
  fs.mkdirSync(run, { recursive: true, mode: 0o700 });
  const env = {
    ...process.env,
    DISPLAY: display,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_RUNTIME_DIR: run,
    NO_AT_BRIDGE: '1',
    // No session bus: no tray, no notifications, and no bus autolaunched behind our back.
    DBUS_SESSION_BUS_ADDRESS: 'disabled:',
    // Wails dev mode (see wails/v2 internal/app/app_dev.go): the env form, so no flag reaches our own parser.
    devserver: `127.0.0.1:${port}`,
    assetdir: dist,
    loglevel: 'info',
    // What a flow's seed put in world.env (a PATH with recording CLIs, say).
    ...(world.env ?? {}),
  };
  const child = spawn(bin, ['--data-dir', world.data, '--hidden'], { env, stdio: ['ignore', logFd, logFd], detached: true });
  fs.closeSync(logFd);
  let exited = null;
  child.once('exit', (code, signal) => (exited = { code, signal }));
  const log = () => fs.readFileSync(logPath, 'utf8');
  const url = `http://127.0.0.1:${port}/`;
  const app = {
    url,
    port,
    pid: child.pid,
    log,
    /** Throws when the app process is gone. */
    alive() {
      if (exited) throw new Error(`the app exited (${JSON.stringify(exited)}); log tail:\n${log().split('\n').slice(-15).join('\n')}`);
    },
    /** SIGTERM, then up to 20 s for a clean exit; SIGKILL to the group after that (and an error). */
    async stop() {
      if (exited) return exited;
      child.kill('SIGTERM');
      for (let i = 0; i < 200 && !exited; i++) await sleep(100);
      if (!exited) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
        for (let i = 0; i < 50 && !exited; i++) await sleep(100);
        throw new Error('the app did not quit within 20 s of SIGTERM');
      }
      return exited;
    },
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited) {
      const e = new Error(`the app exited at start (${JSON.stringify(exited)}):\n${log()}`);
      e.portTaken = /address already in use/.test(log());
      throw e;
    }
    if (/address already in use/.test(log())) {
      await app.stop().catch(() => {});
      const e = new Error(`port ${port} is taken`);
      e.portTaken = true;
      throw e;
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      const body = await res.text();
      if (res.ok && body.includes('/wails/ipc.js')) return app;
      if (res.ok) {
        // Someone else answers on this port: not our app.
        await app.stop().catch(() => {});
        const e = new Error(`port ${port} answers with something else`);
        e.portTaken = true;
        throw e;
      }
    } catch (e) {
      if (e.portTaken) throw e;
    }
    await sleep(150);
  }
  await app.stop().catch(() => {});
  throw new Error(`the app did not serve ${url} within 60 s:\n${log()}`);
}

/** Pids of live processes that run in, or name, dir (agents left in a worktree, a stray app). */
export function processesUnder(dir) {
  const out = [];
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(p) || Number(p) === process.pid) continue;
    let cwd = '';
    let cmd = '';
    try {
      cwd = fs.readlinkSync(`/proc/${p}/cwd`);
      cmd = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      continue;
    }
    if (cwd.startsWith(dir) || cmd.includes(dir)) out.push(`${p}: ${cmd.trim()}`);
  }
  return out;
}

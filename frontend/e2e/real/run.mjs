// Runs the browser flows against the real Go backend: for each flow a fresh
// world (data root + git repo, seeded with the CLI and the mock tool), the
// dev-tagged app serving frontend/dist on loopback, and a fresh Chromium page.
// A flow fails on a failed assertion, any page error or console error, any
// front-end error the app logged, an app that died, or a process left behind.
//
//   node e2e/real/run.mjs BIN [FILTER]     BIN: a `go build -tags desktop,dev` binary
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../harness.mjs';
import { makeWorld, startApp, startXvfb, processesUnder } from './app.mjs';
import { flows } from './flows.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '..', '..', 'dist');
const shots = path.resolve(here, '..', '..', 'test-results', 'screens');
const bin = process.argv[2] && path.resolve(process.argv[2]);
const only = process.argv[3];
if (!bin || !fs.existsSync(bin)) {
  console.error('usage: node e2e/real/run.mjs BIN [FILTER]  (BIN: go build -tags desktop,dev)');
  process.exit(2);
}
if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error('frontend/dist is missing: run `npm run build` first');
  process.exit(2);
}
fs.mkdirSync(shots, { recursive: true });

// Every flow has a deadline: a hung step fails the flow instead of the run.
const FLOW_TIMEOUT = Number(process.env.E2E_FLOW_TIMEOUT_MS ?? 240_000);
const withTimeout = (p, ms, what) => {
  let t;
  return Promise.race([p, new Promise((_, rej) => (t = setTimeout(() => rej(new Error(`${what} timed out after ${ms} ms`)), ms)))]).finally(() => clearTimeout(t));
};

/**
 * What in an app log counts as an error: our slog errors (front-end errors
 * included) and Wails' own, except the one Wails v2.9.2 logs for every browser
 * in dev mode (its browser runtime says "runtime:ready", which its dispatcher
 * does not know).
 */
function logErrors(log) {
  return log.split('\n').filter((l) => /level=ERROR|^ERR \|/.test(l) && l !== 'ERR | Unknown message from front end: runtime:ready');
}

/**
 * After a failed flow, prints the end of each task's log (what the runner did
 * and the agents said, as `boof-runner log ID` shows it) and keeps a copy of the
 * world under test-results/worlds/NAME (its app log, data root and repository),
 * so the failure can be read after the run.
 */
function postMortem(name, world) {
  try {
    for (const t of world.list()) {
      const lines = world.cli('log', t.id).trim().split('\n');
      console.log(`     task ${t.id} (${t.status}), end of its log:\n${lines.slice(-25).map((l) => '       ' + l).join('\n')}`);
    }
  } catch (e) {
    console.log(`     (no task logs: ${e.message.split('\n')[0]})`);
  }
  const keep = path.join(shots, '..', 'worlds', name);
  try {
    fs.rmSync(keep, { recursive: true, force: true });
    const notSocket = (src) => !fs.lstatSync(src).isSocket();
    fs.cpSync(world.dir, keep, { recursive: true, verbatimSymlinks: true, filter: notSocket });
    console.log(`     the world is kept in ${keep}`);
  } catch (e) {
    console.log(`     (the world was not kept: ${e.message})`);
  }
}

const xvfb = await startXvfb();
const chrome = await launch();
let current = null; // the running flow's app and world, stopped on interrupt
const interrupt = async (sig) => {
  console.log(`\n${sig}: stopping`);
  await current?.app?.stop().catch(() => {});
  await chrome.close().catch(() => {});
  await xvfb.stop();
  if (current?.world) fs.rmSync(current.world.dir, { recursive: true, force: true });
  process.exit(130);
};
process.on('SIGINT', () => void interrupt('SIGINT'));
process.on('SIGTERM', () => void interrupt('SIGTERM'));

let passed = 0;
let failed = 0;
const failures = [];
try {
  for (const [name, flow] of Object.entries(flows)) {
    if (only && !name.includes(only)) continue;
    {
      // A flow with `dark: true` also screenshots every step in the dark scheme (same run).
      const label = name;
      const t0 = Date.now();
      const world = makeWorld(bin);
      current = { world };
      let app;
      let ctx;
      const errors = [];
      try {
        const seeded = flow.seed ? await flow.seed(world) : {};
        app = await startApp({ bin, dist, display: xvfb.display, world, firstPort: flow.firstPort?.() });
        current.app = app;
        ctx = await chrome.browser.newContext({ viewport: { width: 1000, height: 640 }, colorScheme: 'light' });
        // Wails' dev transport (a websocket, ipc.js) hands an event to window.wails.EventsNotify as
        // soon as it arrives, and an event can arrive before /wails/runtime.js has defined
        // window.wails: a TypeError in Wails' script, not in the app (CI saw it once in the inject
        // flow). Such an event precedes every subscription of the app, which reads its state when
        // it mounts; the runtime replaces this placeholder when it loads.
        await ctx.addInitScript(() => {
          window.wails = window.wails || { EventsNotify() {}, Callback() {} };
        });
        const page = await ctx.newPage();
        page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
        page.on('console', (m) => m.type() === 'error' && errors.push(`console error: ${m.text()}`));
        await page.goto(app.url);
        // The bindings are in place once the Wails runtime has loaded ipc.js and the bound methods.
        await page.waitForFunction(() => !!window.go?.app?.TaskService, null, { timeout: 30_000 });
        const shot = async (n) => {
          await page.screenshot({ path: path.join(shots, `real-${n}.png`) });
          if (!flow.dark) return;
          await page.emulateMedia({ colorScheme: 'dark' });
          await page.screenshot({ path: path.join(shots, `real-${n}-dark.png`) });
          await page.emulateMedia({ colorScheme: 'light' });
        };
        await withTimeout(flow.run(page, { world, app, shot, seeded }), FLOW_TIMEOUT, label);
        app.alive();
        errors.push(...logErrors(app.log()));
        if (errors.length) throw new Error(errors.join('; '));
        passed++;
        console.log(`ok   ${label} (${Date.now() - t0} ms)`);
      } catch (e) {
        failed++;
        const msg = e instanceof Error ? e.message.split('\n').slice(0, 6).join(' | ') : String(e);
        failures.push(`${label}: ${msg}`);
        console.log(`FAIL ${label}: ${msg}`);
        const page = ctx?.pages()[0];
        await page?.screenshot({ path: path.join(shots, `FAILED-real-${name}.png`) }).catch(() => {});
        if (app) console.log(`     app log tail:\n${app.log().split('\n').slice(-12).map((l) => '       ' + l).join('\n')}`);
        postMortem(name, world);
      } finally {
        await ctx?.close().catch(() => {});
        try {
          await app?.stop();
        } catch (e) {
          failed++;
          console.log(`FAIL ${label}: ${e.message}`);
        }
        const left = processesUnder(world.dir);
        if (left.length) {
          failed++;
          console.log(`FAIL ${label}: processes survived the flow:\n  ${left.join('\n  ')}`);
          for (const l of left) {
            try {
              process.kill(Number(l.split(':')[0]), 'SIGKILL');
            } catch {
              /* gone */
            }
          }
        }
        fs.rmSync(world.dir, { recursive: true, force: true });
        current = null;
      }
    }
  }
} finally {
  await chrome.close();
  await xvfb.stop();
}
console.log(`screenshots in ${shots}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

// Streaming benchmark against the real app: UI update rate and CPU while the
// running task streams ~10 MB/s, and front-end heap after a simulated hour of
// output. The app (a `go build -tags desktop,dev` binary serving dist/) runs a
// real task with the mock tool, held at its developer step; the benchmark
// opens that task's Running panel and streams batches into the page through
// Wails' own event delivery (window.wails.EventsNotify, where each event Go
// sends over the dev transport arrives), at a rate no mock agent can hold.
// Usage: node e2e/bench.mjs BIN [seconds=30]   (build first: npm run build)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from './harness.mjs';
import { makeWorld, processesUnder, startApp, startXvfb } from './real/app.mjs';
import { row, until } from './real/helpers.mjs';

const bin = process.argv[2] && path.resolve(process.argv[2]);
const seconds = Number(process.argv[3] ?? process.env.BENCH_SECONDS ?? 30);
const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '..', 'dist');
if (!bin || !fs.existsSync(bin) || !fs.existsSync(path.join(dist, 'index.html'))) {
  console.error('usage: node e2e/bench.mjs BIN [SECONDS]  (BIN: go build -tags desktop,dev; run `npm run build` first)');
  process.exit(2);
}

const TITLE = 'Benchmark the live feed';
const world = makeWorld(bin);
world.cli('settings', 'set', 'runner.enabled', 'true');
const id = world.add('Hold the developer step [[mock-await developer=1]]', '--title', TITLE);
const xvfb = await startXvfb();
const app = await startApp({ bin, dist, display: xvfb.display, world });
const chrome = await launch();
const out = {};

/** Opens the running task's panel (its feed or its terminal) in a fresh page. */
async function open(view) {
  const ctx = await chrome.browser.newContext({ viewport: { width: 1000, height: 640 } });
  await ctx.addInitScript(() => {
    window.wails = window.wails || { EventsNotify() {}, Callback() {} };
  });
  const page = await ctx.newPage();
  await page.goto(app.url);
  await page.waitForFunction(() => !!window.go?.app?.TaskService, null, { timeout: 30_000 });
  await row(page, TITLE, 'ongoing').getByRole('button').first().click();
  const panel = page.getByRole('region', { name: 'Running task' });
  await panel.getByRole('list', { name: 'Agent output' }).getByRole('listitem').first().waitFor({ timeout: 60_000 });
  if (view === 'terminal') {
    await panel.getByRole('button', { name: 'Terminal' }).click();
    await page.locator('.xterm-rows').waitFor();
  }
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { ctx, page, cdp };
}

async function metrics(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

/** Streams `mbps` MB/s for `secs` seconds into the page; returns update and frame counts. */
async function stream(page, secs, mbps) {
  return page.evaluate(
    async ({ id, secs, mbps }) => {
      // As the dev transport delivers an event Go emitted (ipc.js: window.wails.EventsNotify).
      const deliver = (batch) => window.wails.EventsNotify(JSON.stringify({ name: 'task:output:' + id, data: [batch] }));
      const feedEl = document.querySelector('[aria-label="Agent output"]');
      const termEl = document.querySelector('.xterm-rows');
      // A UI update = a frame in which the output DOM changed (however many mutations it had).
      const changedFrames = new Set();
      const mo = new MutationObserver(() => changedFrames.add(frames));
      mo.observe(termEl ?? feedEl, { childList: true, subtree: true, characterData: true });
      let frames = 0;
      let run = true;
      const raf = () => {
        frames++;
        if (run) requestAnimationFrame(raf);
      };
      requestAnimationFrame(raf);
      const line = '\x1b[32mok\x1b[0m  ' + 'x'.repeat(90) + '\r\n';
      const rate = mbps * 1e6; // bytes per second
      let seq = 1e7;
      let bytes = 0;
      const t0 = performance.now();
      // Each tick sends what is owed at `rate` since the start, so a busy page
      // gets bigger batches rather than a slower stream (as the Go side batches).
      await new Promise((done) => {
        const timer = setInterval(() => {
          const owed = Math.min(4e6, rate * ((performance.now() - t0) / 1000) - bytes);
          if (owed <= 0) return;
          const n = Math.min(2000, Math.max(1, Math.round(owed / 2500)));
          const feed = [];
          for (let i = 0; i < n; i++) {
            const at = ++seq;
            const text = 'line ' + at + ' ' + 'y'.repeat(80);
            const call_id = 'c' + Math.floor(at / 4);
            const typed = i % 4 === 1 ? { kind: 'tool_call', data: { tool: 'Bash', call_id, input: text } } : i % 4 === 2 ? { kind: 'tool_result', data: { call_id, output: text } } : { kind: 'text', data: { text } };
            feed.push({ seq: at, at: new Date().toISOString(), role: 'developer', ...typed });
          }
          const termLen = Math.max(0, owed - n * 100);
          const terminal = line.repeat(Math.ceil(termLen / line.length)).slice(0, termLen);
          deliver({ task_id: id, feed, terminal });
          bytes += terminal.length + n * 100;
          if (performance.now() - t0 >= secs * 1000) {
            clearInterval(timer);
            done();
          }
        }, 10);
      });
      await new Promise((r) => setTimeout(r, 200));
      run = false;
      mo.disconnect();
      const wall = (performance.now() - t0) / 1000;
      return { wall, updatesPerSec: changedFrames.size / wall, framesPerSec: frames / wall, mbPerSec: bytes / 1e6 / wall, rows: document.querySelectorAll('[aria-label="Agent output"] [role="listitem"]').length };
    },
    { id, secs, mbps },
  );
}

try {
  await until('the task at its developer step', () => world.show(id).status === 'ongoing' && /developer/.test(world.cli('show', id)), 120_000);
  for (const view of ['feed', 'terminal']) {
    const { ctx, page, cdp } = await open(view);
    const m0 = await metrics(cdp);
    const r = await stream(page, seconds, 10);
    const m1 = await metrics(cdp);
    out[view] = {
      seconds: +r.wall.toFixed(1),
      streamed_mb_per_s: +r.mbPerSec.toFixed(2),
      ui_updates_per_s: +r.updatesPerSec.toFixed(1),
      frames_per_s: +r.framesPerSec.toFixed(1),
      renderer_cpu_percent: +((100 * (m1.TaskDuration - m0.TaskDuration)) / (m1.Timestamp - m0.Timestamp)).toFixed(1),
      js_heap_mb: +(m1.JSHeapUsedSize / 1e6).toFixed(1),
      feed_rows_in_dom: r.rows,
    };
    await ctx.close();
  }

  // A simulated hour: 60 feed items and 3 KB of terminal text per second of agent time, pushed fast.
  {
    const { ctx, page, cdp } = await open('terminal');
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return +((await metrics(cdp)).JSHeapUsedSize / 1e6).toFixed(1);
    };
    const samples = { start: await heap() };
    for (const minutes of [10, 30, 60]) {
      await page.evaluate(
        async ({ id, until }) => {
          window.__simSec ??= 0;
          window.__simSeq ??= 2e7;
          const chunk = 'z'.repeat(3000) + '\r\n';
          while (window.__simSec < until * 60) {
            for (let s = 0; s < 60 && window.__simSec < until * 60; s++, window.__simSec++) {
              const feed = [];
              for (let i = 0; i < 60; i++) feed.push({ seq: ++window.__simSeq, at: '2026-11-30T00:00:00Z', role: 'developer', kind: 'text', data: { text: 'simulated ' + window.__simSeq } });
              window.wails.EventsNotify(JSON.stringify({ name: 'task:output:' + id, data: [{ task_id: id, feed, terminal: chunk }] }));
            }
            await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
          }
        },
        { id, until: minutes },
      );
      samples[`after_${minutes}_min`] = await heap();
    }
    out.simulated_hour_js_heap_mb = samples;
    await ctx.close();
  }
} finally {
  await chrome.close();
  await app.stop().catch((e) => console.error(e.message));
  await xvfb.stop();
  const left = processesUnder(world.dir);
  for (const l of left) {
    try {
      process.kill(Number(l.split(':')[0]), 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  fs.rmSync(world.dir, { recursive: true, force: true });
  if (left.length) console.error(`processes survived the benchmark:\n  ${left.join('\n  ')}`);
}
console.log(JSON.stringify(out, null, 2));

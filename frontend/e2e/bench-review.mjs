// The 500k-line review measured on screen (issue 40): a task whose diff adds
// one file of ~500,000 lines, opened on the Review screen of the real app (a
// `go build -tags desktop,dev` binary serving dist/ with the real backend) in
// Chromium under Xvfb, as the browser flows run it. Prints figures, no
// thresholds: the time from picking the task to the first diff row painted,
// the rows in the DOM (the list is virtualized: bounded), the time of a
// scroll to the end of the rows loaded, and of one to the end of the file
// (the view loads the rest a page at a time as it reaches it).
// Usage: node e2e/bench-review.mjs BIN [lines=500000]   (build first: npm run build)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from './harness.mjs';
import { makeWorld, processesUnder, startApp, startXvfb } from './real/app.mjs';
import { nav } from './real/helpers.mjs';
import { commitOnTask, doneTask } from './real/review.mjs';

const bin = process.argv[2] && path.resolve(process.argv[2]);
const lines = Number(process.argv[3] ?? process.env.BENCH_LINES ?? 500_000);
const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '..', 'dist');
if (!bin || !fs.existsSync(bin) || !fs.existsSync(path.join(dist, 'index.html'))) {
  console.error('usage: node e2e/bench-review.mjs BIN [LINES]  (BIN: go build -tags desktop,dev; run `npm run build` first)');
  process.exit(2);
}

const TITLE = 'Generate the tables';
const world = makeWorld(bin);
let t = Date.now();
const task = doneTask(world, TITLE);
const body = Array.from({ length: lines }, (_, i) => `row ${i + 1} = ${(i * 2654435761) % 1000003}`).join('\n') + '\n';
commitOnTask(world, task, { 'big/tables.txt': body }, 'Generate the tables');
console.log(`seeded: a task adding big/tables.txt, ${lines.toLocaleString()} lines (${(body.length / 1e6).toFixed(1)} MB), in ${Date.now() - t} ms`);

const xvfb = await startXvfb();
const app = await startApp({ bin, dist, display: xvfb.display, world });
const chrome = await launch();
const errors = [];
try {
  const ctx = await chrome.browser.newContext({ viewport: { width: 1000, height: 640 } });
  await ctx.addInitScript(() => {
    window.wails = window.wails || { EventsNotify() {}, Callback() {} };
  });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console error: ${m.text()}`));
  await page.goto(app.url);
  await page.waitForFunction(() => !!window.go?.app?.TaskService, null, { timeout: 30_000 });
  await nav(page, 'Review').click();
  const patch = page.getByRole('list', { name: 'Patch' });
  const painted = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
  const domRows = () => patch.getByRole('listitem').count();

  t = Date.now();
  await page.getByRole('combobox', { name: 'Task to review' }).selectOption({ label: `${TITLE} (done)` });
  await patch.locator('.ln').first().waitFor({ timeout: 120_000 });
  await painted();
  console.log(`figures: first diff row painted ${Date.now() - t} ms after the task was picked`);
  console.log(`figures: rows in the DOM after opening: ${await domRows()}`);

  const toEnd = () =>
    patch.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
      el.dispatchEvent(new Event('scroll'));
    });
  // The end of what is loaded: one scroll, the rows there painted.
  const loadedLast = await page.evaluate(() => document.querySelectorAll('[aria-label="Patch"] .ln').length);
  t = Date.now();
  await toEnd();
  await painted();
  console.log(`figures: scroll to the end of the loaded rows ${Date.now() - t} ms (rows in the DOM: ${await domRows()}; ${loadedLast} line rows drawn before)`);

  // The end of the file: scroll to the end until the last line is painted (each page of
  // lines loads as the view reaches the row for them).
  t = Date.now();
  const last = patch.locator('.ln', { hasText: `row ${lines} = ` });
  const lastDrawn = () => page.evaluate(() => Math.max(0, ...[...document.querySelectorAll('[aria-label="Patch"] .ln .num:nth-child(2)')].map((n) => Number(n.textContent) || 0)));
  let scrolls = 0;
  let maxRows = 0;
  // A figure either way: how long the end took, or how far the view got in BENCH_END_MS.
  const budget = Number(process.env.BENCH_END_MS ?? 600_000);
  let reached = false;
  while (!reached && Date.now() - t < budget) {
    await toEnd();
    scrolls++;
    maxRows = Math.max(maxRows, await domRows());
    if (scrolls % 50 === 0) console.log(`  ${((Date.now() - t) / 1000).toFixed(0)} s: line ${await lastDrawn()} of ${lines.toLocaleString()} reached`);
    reached = await last.isVisible();
    if (!reached) await new Promise((r) => setTimeout(r, 200));
  }
  await painted();
  const s = ((Date.now() - t) / 1000).toFixed(1);
  const how = `${scrolls} scroll steps, the most rows in the DOM meanwhile: ${maxRows}, at the end: ${await domRows()}`;
  if (reached) console.log(`figures: scroll to the end of the file ${s} s (${how})`);
  else console.log(`figures: scroll to the end of the file not done in ${s} s (BENCH_END_MS): line ${await lastDrawn()} of ${lines.toLocaleString()} reached (${how})`);
  app.alive();
  if (errors.length) throw new Error(errors.join('; '));
  await ctx.close();
} finally {
  await chrome.close();
  await app.stop().catch((e) => console.error(e.message));
  await xvfb.stop();
  const left = processesUnder(world.dir);
  fs.rmSync(world.dir, { recursive: true, force: true });
  if (left.length) {
    console.error(`processes survived: ${left.join(', ')}`);
    process.exitCode = 1;
  }
}

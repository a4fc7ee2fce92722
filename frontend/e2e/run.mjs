// Runs the browser flows against dist-fake/ (build it first: npm run build:fake).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, launch } from './harness.mjs';
import { flows } from './flows.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', 'dist-fake');
const shots = path.resolve(here, '..', 'test-results', 'screens');

if (!fs.existsSync(path.join(root, 'index.html'))) {
  console.error('dist-fake/ is missing: run `npm run build:fake` first');
  process.exit(1);
}
fs.mkdirSync(shots, { recursive: true });

const only = process.argv[2];
const server = await serve(root);
const chrome = await launch();
let passed = 0;
let failed = 0;
try {
  for (const [name, flow] of Object.entries(flows)) {
    if (only && !name.includes(only)) continue;
    for (const scheme of flow.schemes ?? ['light']) {
      const ctx = await chrome.browser.newContext({ viewport: { width: 1000, height: 640 }, colorScheme: scheme });
      const page = await ctx.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      const label = scheme === 'light' ? name : `${name} (${scheme})`;
      const t0 = Date.now();
      try {
        await page.goto(server.url);
        await flow.run(page, { shot: (n) => page.screenshot({ path: path.join(shots, `${n}${scheme === 'light' ? '' : '-' + scheme}.png`) }), url: server.url, ctx });
        if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
        passed++;
        console.log(`ok   ${label} (${Date.now() - t0} ms)`);
      } catch (e) {
        failed++;
        console.log(`FAIL ${label}: ${e instanceof Error ? e.message.split('\n').slice(0, 4).join(' | ') : e}`);
        await page.screenshot({ path: path.join(shots, `FAILED-${name}.png`) }).catch(() => {});
      } finally {
        await ctx.close();
      }
    }
  }
} finally {
  await chrome.close();
  await server.close();
}
console.log(`screenshots in ${shots}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

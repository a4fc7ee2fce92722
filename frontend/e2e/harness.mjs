// Minimal e2e harness: Chromium through playwright-core, and assert for the flows.
import fs from 'node:fs';
import { chromium } from 'playwright-core';

export async function launch() {
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath} (apt-get install chromium)`);
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    // launch() gives every run a fresh temporary profile (it refuses --user-data-dir).
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

export function assert(cond, msg) {
  if (!cond) throw new Error(`assertion failed: ${msg}`);
}

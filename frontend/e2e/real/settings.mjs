// The Settings screen against the real backend: budgets, refused and saved
// settings, usage charts, the tool checks.
import fs from 'node:fs';
import path from 'node:path';
import { assert } from '../harness.mjs';
import { goldenFieldError, goldenRefusal, nav, openTask, until } from './helpers.mjs';

export const settingsFlows = {
  budgets: {
    seed(world) {
      // A daily cap of $1.00; the developer's mock tokens are priced at $1 per million.
      world.cli('settings', 'set', 'roles.developer', '{"tool":"mock","model":"mock-priced"}');
      world.cli('settings', 'set', 'budgets.daily', '{"usd":1,"mode":"cap"}');
      const id = world.add('Burn tokens [[mock-usage developer=2000000]] [[mock-delay developer=200]]', '--title', 'Burn tokens');
      world.runQueue();
      return { id };
    },
    async run(page, { world, shot, seeded }) {
      const t = world.show(seeded.id);
      assert(t.status === 'stopped' && t.error === 'budget: daily cap $1.00 reached', `seeded task ${t.status} ${t.error}`);
      await page.keyboard.press('Control+4');
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      const panel = page.getByLabel('Budgets', { exact: true });
      const bar = panel.getByRole('progressbar', { name: 'daily budget' });
      await bar.waitFor();
      assert((await bar.getAttribute('aria-valuenow')) === '100', 'the daily bar is full');
      await panel.getByText('Cap reached: the queue starts nothing it covers.').waitFor();
      await panel.getByText('budget: daily cap $1.00 reached').first().waitFor();
      await panel.scrollIntoViewIfNeeded();
      await shot('budgets');
      const retry = panel.getByRole('button', { name: /no cap holds/ });
      assert(await retry.isDisabled(), 'retry is disabled while the cap holds the task');
      // Raising the cap in the form frees the task; one action re-queues it.
      await panel.getByRole('spinbutton', { name: 'Per day USD' }).fill('10');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved.').waitFor();
      assert(world.cli('settings', 'get', 'budgets.daily.usd').trim() === '10', 'the cap was saved');
      await retry.click();
      await panel.getByText('1 task re-queued.').waitFor();
      assert(world.show(seeded.id).status === 'pending', 'the stopped task is pending again');
    },
  },
  'settings-invalid': {
    dark: true,
    async run(page, { world, shot }) {
      const get = (key) => world.cli('settings', 'get', key).trim();
      await nav(page, 'Settings').click();
      const s = page.getByRole('region', { name: 'Settings' });
      await s.getByRole('spinbutton', { name: 'Concurrency' }).fill('99');
      await s.getByRole('textbox', { name: 'Backoff delays' }).fill('1000, 2000');
      await s.getByRole('button', { name: 'Save settings' }).click();
      await s.locator('[data-path="concurrency"]').filter({ hasText: goldenFieldError((s) => s.concurrency === 99, 'concurrency') }).waitFor();
      await s.getByRole('alert').filter({ hasText: 'Nothing was saved' }).waitFor();
      assert(get('runner.concurrency') === '1', `invalid value not stored (${get('runner.concurrency')})`);
      assert(await s.getByRole('button', { name: 'Save settings' }).isEnabled(), 'still dirty after a refused save');
      await shot('settings-invalid');
      await s.getByRole('combobox', { name: 'observer tool' }).selectOption('');
      await s.getByText('no observer step').waitFor();
      await s.getByRole('spinbutton', { name: 'Concurrency' }).fill('2');
      await s.getByRole('button', { name: 'Save settings' }).click();
      await s.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
      assert(get('runner.concurrency') === '2', `concurrency saved (${get('runner.concurrency')})`);
      assert(JSON.parse(get('retries.backoffMs')).join() === '1000,2000', `backoff saved (${get('retries.backoffMs')})`);
      assert(get('roles.developer').includes('mock'), 'the roles kept their tool');
      // Usage limits: switch, gemini before codex, codex out, mock in at the end.
      await s.getByRole('combobox', { name: 'On a usage limit' }).selectOption('switch');
      await s.getByRole('button', { name: 'Move gemini up' }).click();
      await s.getByRole('button', { name: 'Take codex out of the switch order' }).click();
      await s.getByRole('combobox', { name: 'Add to the switch order' }).selectOption('mock');
      await s.getByRole('button', { name: 'Save settings' }).click();
      await s.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
      assert(get('limits.onLimit') === '"switch"', `on-limit saved (${get('limits.onLimit')})`);
      assert(JSON.parse(get('limits.switchOrder')).join() === 'claude-code,gemini,opencode,qwen-code,mock', `switch order saved (${get('limits.switchOrder')})`);
      await s.getByRole('button', { name: 'Test mock' }).click();
      await s.locator('tr[data-tool="mock"] .good').waitFor({ timeout: 30_000 });
      await shot('settings');
    },
  },
  charts: {
    seed(world) {
      world.add('Add a greeting file', '--title', 'Add a greeting file');
      world.runQueue();
    },
    async run(page, { shot }) {
      await nav(page, 'Settings').click();
      const usage = page.getByLabel('Usage', { exact: true });
      await usage.scrollIntoViewIfNeeded();
      const perDay = usage.getByRole('img', { name: 'Per day' });
      await perDay.waitFor();
      const bars = await perDay.locator('rect').count();
      assert(bars >= 7, `a bar per day (${bars})`);
      await usage.getByRole('button', { name: 'Tokens' }).click();
      await usage.getByRole('img', { name: 'Per tool' }).getByText('mock', { exact: true }).waitFor();
      await usage.getByRole('img', { name: 'Per task' }).scrollIntoViewIfNeeded();
      await shot('usage');
      await usage.getByRole('textbox', { name: 'From' }).fill('2026-12-31');
      await usage.getByRole('textbox', { name: 'To' }).fill('2026-01-01');
      await usage.getByRole('button', { name: 'Show' }).click();
      await usage.getByRole('alert').filter({ hasText: goldenRefusal('usage: range reversed') }).waitFor();
    },
  },
  'tool checks': {
    // claude and codex on PATH are scripts that record how they were called:
    // the window starts without running them (no CLI process, no model
    // request); the Settings screen runs the checks.
    seed(world) {
      const bin = path.join(world.dir, 'clis');
      const calls = path.join(world.dir, 'cli-calls.log');
      fs.mkdirSync(bin);
      for (const [name, version] of [['claude', '2.1.0 (Claude Code)'], ['codex', 'codex-cli 0.171.0']]) {
        fs.writeFileSync(path.join(bin, name), `#!/bin/sh\necho "${name} $*" >> '${calls}'\necho '${version}'\n`, { mode: 0o755 });
      }
      world.env = { PATH: `${bin}:${process.env.PATH}` };
      world.add('Fix flaky worktree test', '--title', 'Fix flaky worktree test');
      return { calls };
    },
    async run(page, { seeded, shot }) {
      const called = () => (fs.existsSync(seeded.calls) ? fs.readFileSync(seeded.calls, 'utf8') : '');
      // The task editor offers every registered tool, unchecked.
      const pane = await openTask(page, 'Fix flaky worktree test');
      await pane.getByText('Tool and model per role').click();
      const tools = pane.getByRole('combobox', { name: 'developer tool' });
      // Every registered tool: the five agent CLIs and the mock.
      const want = '(settings),claude-code,codex,gemini,mock,opencode,qwen-code';
      await until('the tool choices', async () => {
        const [first, ...rest] = (await tools.locator('option').allTextContents()).map((t) => t.trim());
        return [first, ...rest.sort()].join(',') === want;
      });
      await new Promise((r) => setTimeout(r, 3000));
      assert(called() === '', `the window's start ran the CLIs:\n${called()}`);
      await nav(page, 'Settings').click();
      const health = page.getByRole('table', { name: 'Tool health' });
      await health.locator('tr[data-tool="claude-code"]').filter({ hasText: '2.1.0' }).waitFor({ timeout: 30_000 });
      await health.locator('tr[data-tool="codex"]').filter({ hasText: '0.171.0' }).waitFor({ timeout: 30_000 });
      const log = called();
      assert(/^claude --version$/m.test(log) && /^codex --version$/m.test(log), `the Settings screen checked the CLIs:\n${log}`);
      await health.locator('tr[data-tool="mock"]').filter({ hasText: 'checked just now' }).waitFor();
      await shot('tool-health');
      // Opened again: the failing checks run again (the passing mock's is shown as it was).
      await nav(page, 'Tasks').click();
      await nav(page, 'Settings').click();
      await until('the failing checks run again', () => called().match(/^claude --version$/gm)?.length === 2 && called().match(/^codex --version$/gm)?.length === 2);
    },
  },
};

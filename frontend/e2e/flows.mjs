import { assert } from './harness.mjs';

/** Each flow gets a fresh page at the app's URL (1000×640). */
export const flows = {
  create: {
    schemes: ['light', 'dark'],
    async run(page, { shot }) {
      const prompt = page.getByRole('textbox', { name: /Prompt/ });
      await prompt.waitFor();
      assert(await prompt.evaluate((el) => el === document.activeElement), 'prompt has focus on load');
      // Type into whatever has focus, then Ctrl+Enter — as the real-window smoke test does.
      await page.keyboard.type('Write a CHANGELOG from the git history');
      await page.keyboard.press('Control+Enter');
      const row = page.locator('[data-group="pending"] + ul li', { hasText: 'Write a CHANGELOG from the git history' });
      await row.waitFor({ timeout: 5000 });
      assert((await prompt.inputValue()) === '', 'prompt cleared after submit');
      await page.getByRole('status').filter({ hasText: 'Added' }).waitFor();
      await shot('tasks');
    },
  },
  'create-invalid': {
    async run(page, { shot }) {
      await page.getByRole('button', { name: 'Add task' }).click();
      await page.getByRole('alert').filter({ hasText: 'Write a prompt' }).waitFor();
      await shot('new-task-error');
    },
  },
};

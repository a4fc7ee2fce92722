// The registry of the browser flows against the real backend (run.mjs runs
// them). Each flow may seed its world with the CLI before the app starts
// (`seed(world)` returns what `run` needs), then drives the UI by roles and
// labels and asserts both what the user sees and the real state (`boof-runner
// show --json`, git). The flows live by screen in their own modules, which
// share helpers.mjs and never import this one.
import { contentFlows } from './content.mjs';
import { contractFlows } from './contract.mjs';
import { diffViewFlows } from './diffview.mjs';
import { forgeFlows } from './forge.mjs';
import { forgeGitLabFlows } from './forgegitlab.mjs';
import { forgeIssueFlows } from './forgeissue.mjs';
import { mergeQueueFlows } from './mergequeue.mjs';
import { reviewFlows } from './review.mjs';
import { reportFlows } from './reports.mjs';
import { runningFlows } from './running.mjs';
import { scheduleFlows } from './schedules.mjs';
import { settingsFlows } from './settings.mjs';
import { setupFlows } from './setup.mjs';
import { taskFlows } from './tasks.mjs';
import { windowFlows } from './window.mjs';

export const flows = {
  ...taskFlows,
  ...runningFlows,
  ...settingsFlows,
  ...windowFlows,
  ...reviewFlows,
  ...diffViewFlows,
  ...reportFlows,
  ...contentFlows,
  ...scheduleFlows,
  ...mergeQueueFlows,
  ...forgeFlows,
  ...forgeGitLabFlows,
  ...forgeIssueFlows,
  ...contractFlows,
  ...setupFlows,
};

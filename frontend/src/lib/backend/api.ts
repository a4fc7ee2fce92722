// Every bound Go method, by "Service.Method": the slices of the *-api.ts
// modules composed in one type (contract.check.ts holds it to the bindings
// generated from Go).
import type { ForgeApi } from './forge-api';
import type { QueueApi } from './queue-api';
import type { ReviewApi } from './review-api';
import type { RunApi } from './run-api';
import type { ScheduleApi } from './schedules-api';
import type { CommandApi, SettingsApi } from './settings-api';
import type { SetupApi } from './setup-api';
import type { TaskApi } from './task-api';
import type { WindowApi } from './window-api';

export type Api = TaskApi & RunApi & CommandApi & SettingsApi & ReviewApi & QueueApi & ScheduleApi & WindowApi & ForgeApi & SetupApi;

export type Method = keyof Api;

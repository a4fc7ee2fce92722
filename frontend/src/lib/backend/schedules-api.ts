// ScheduleService (issue 21): recurring tasks and tasks scheduled for later
// (Go: app/schedules.go).
import type { CreateTaskInput, Status, TaskView } from './types';

/** The task a schedule queues at each fire. */
export interface ScheduleTemplate {
  title: string;
  prompt: string;
  priority: number;
  base: string;
  labels: string[];
  runs: number;
  repo: string;
  command: string;
}

/** A task a schedule queued. */
export interface ScheduledTaskRef {
  id: string;
  title: string;
  status: Status;
}

/** A recurring task as the Schedules screen lists it. */
export interface ScheduleView {
  id: string;
  /** Its own name; "" when it has none. */
  name: string;
  /** What the list shows: the name, else the task's title or prompt. */
  display: string;
  cron: string;
  /** The expression in words ("weekdays at 02:00"); "" when it has no short wording. */
  cron_text: string;
  tz: string;
  paused: boolean;
  /** Absent while paused. */
  next_fire?: string;
  last_fire?: string;
  last_task?: ScheduledTaskRef;
  template: ScheduleTemplate;
  created_at: string;
}

/** The New task form with its Repeat option set. */
export interface ScheduleInput {
  name: string;
  cron: string;
  /** IANA zone; "" is UTC. */
  tz: string;
  task: CreateTaskInput;
}

/** A cron expression checked, with its next fires (UTC, at most 3). */
export interface CronPreview {
  cron: string;
  tz: string;
  text: string;
  next: string[];
}

/** One fire of a schedule and what came of it. */
export interface ScheduleRun {
  id: number;
  schedule_id: string;
  at: string;
  due: string;
  outcome: 'queued' | 'skipped' | 'missed' | 'caught_up';
  task_id?: string;
  /** Why ("the previous task … is still ongoing", "run now from the window"). */
  note?: string;
}

export interface ScheduleApi {
  'ScheduleService.List': () => Promise<ScheduleView[]>;
  'ScheduleService.Scheduled': () => Promise<TaskView[]>;
  'ScheduleService.Preview': (cron: string, tz: string) => Promise<CronPreview>;
  'ScheduleService.Create': (input: ScheduleInput) => Promise<ScheduleView>;
  'ScheduleService.SetPaused': (id: string, paused: boolean) => Promise<ScheduleView>;
  'ScheduleService.Delete': (id: string) => Promise<void>;
  'ScheduleService.RunNow': (id: string) => Promise<TaskView>;
  'ScheduleService.Update': (id: string, input: ScheduleInput) => Promise<ScheduleView>;
  'ScheduleService.Log': (id: string) => Promise<ScheduleRun[]>;
}

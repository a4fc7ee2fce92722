import { describe, expect, it, vi } from 'vitest';
import { render, screen, fireEvent, waitFor, within } from '@testing-library/svelte';
import { StubBackend } from '../backend/stub';
import { taskView } from '../backend/stub-data';
import { callError, callOutcome } from '../backend/goldens';
import type { CronPreview, ScheduleInput, ScheduleRun, ScheduleView } from '../backend/schedules-api';
import type { TaskView } from '../backend/types';
import { TaskStore } from '../tasks/tasks.svelte';
import NewTaskForm from '../tasks/NewTaskForm.svelte';
import SchedulesScreen from './SchedulesScreen.svelte';
import { ScheduleStore } from './schedules.svelte';
import { formatWhen, localInputToISO, presetCron } from './when';

// Friday 4 December 2026, 10:00 UTC.
const NOW = new Date('2026-12-04T10:00:00Z');

/**
 * The previews Go gives from NOW: the words and zone of the first are the
 * golden's, the fires are what Go computes from NOW (the golden leaves them
 * out: they depend on the clock); bad expressions get the golden's sentences.
 */
const weekdays = callOutcome('schedule preview: weekdays at 02:00 in words').ok as { text: string; tz: string };
const PREVIEWS: Record<string, CronPreview> = {
  '0 2 * * 1-5 Europe/Berlin': { cron: '0 2 * * 1-5', tz: weekdays.tz, text: weekdays.text, next: ['2026-12-07T01:00:00Z', '2026-12-08T01:00:00Z', '2026-12-09T01:00:00Z'] },
  '0 9 * * 1-5 UTC': { cron: '0 9 * * 1-5', tz: 'UTC', text: 'weekdays at 09:00', next: ['2026-12-07T09:00:00Z', '2026-12-08T09:00:00Z', '2026-12-09T09:00:00Z'] },
  '30 2 * * * UTC': { cron: '30 2 * * *', tz: 'UTC', text: 'every day at 02:30', next: ['2026-12-05T02:30:00Z', '2026-12-06T02:30:00Z', '2026-12-07T02:30:00Z'] },
};
const REFUSED: Record<string, string> = {
  '0 2 * *': callError('schedule preview: four fields'),
  '0 25 * * *': callError('schedule preview: hour out of range'),
};

function preview(cron: string, tz: string): CronPreview {
  if (REFUSED[cron]) throw new Error(REFUSED[cron]);
  const p = PREVIEWS[`${cron} ${tz}`];
  if (!p) throw new Error(`no preview scripted for "${cron}" in "${tz}"`);
  return p;
}

/** The schedule Go makes of the form's input (its next fire from the preview). */
function scheduleOf(id: string, input: ScheduleInput, over: Partial<ScheduleView> = {}): ScheduleView {
  const p = preview(input.cron, input.tz || 'UTC');
  return {
    id,
    name: input.name,
    display: input.name || input.task.title || input.task.prompt,
    cron: input.cron,
    cron_text: p.text,
    tz: input.tz || 'UTC',
    paused: false,
    next_fire: p.next[0],
    template: { title: input.task.title, prompt: input.task.prompt, priority: input.task.priority, base: input.task.base, labels: input.task.labels, runs: input.task.runs, repo: '/home/dev/project', command: '' },
    created_at: NOW.toISOString(),
    ...over,
  };
}

function form() {
  let schedules: ScheduleView[] = [];
  const b = new StubBackend({
    'ScheduleService.Preview': preview,
    'ScheduleService.List': () => schedules,
    'ScheduleService.Scheduled': () => [],
    'ScheduleService.Create': (input) => (schedules = [scheduleOf('s1', input)])[0],
    'TaskService.List': () => [],
    'TaskService.Create': (input) => taskView({ id: 'n1', prompt: input.prompt, not_before: input.not_before }),
  });
  const tasks = new TaskStore(b);
  const store = new ScheduleStore(b);
  render(NewTaskForm, { store: tasks, branches: ['main'], schedules: store });
  return { b, tasks, schedules: store, prompt: screen.getByRole('textbox', { name: /prompt/i }) as HTMLTextAreaElement };
}

describe('presets and times', () => {
  it('makes the cron expression of each preset', () => {
    expect(presetCron('hourly', '0:15')).toBe('15 * * * *');
    expect(presetCron('daily', '02:30')).toBe('30 2 * * *');
    expect(presetCron('weekdays', '9:05')).toBe('5 9 * * 1-5');
    expect(presetCron('weekly', '08:00', 3)).toBe('0 8 * * 3');
    expect(presetCron('daily', '24:00')).toBeNull();
    expect(presetCron('custom', '02:00')).toBeNull();
  });

  it('formats an instant in a zone and reads the datetime-local input', () => {
    expect(formatWhen('2026-12-07T01:00:00Z', 'Europe/Berlin', NOW)).toBe('Mon 7 Dec 02:00');
    expect(formatWhen('2027-01-04T01:00:00Z', 'UTC', NOW)).toBe('Mon 4 Jan 2027 01:00');
    expect(formatWhen(undefined)).toBe('');
    expect(localInputToISO('')).toBeNull();
    expect(localInputToISO('2026-12-02T02:00')).toBe(new Date('2026-12-02T02:00').toISOString());
  });
});

describe('New task form: When', () => {
  it("asks for the machine's zone when Repeat is first picked, not when the form mounts", async () => {
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      form();
      expect(made).not.toHaveBeenCalled(); // the first Intl call loads ICU: not on the first paint
      await fireEvent.click(screen.getByRole('radio', { name: 'Repeat…' }));
      const zone = screen.getByRole('combobox', { name: 'Time zone' }) as HTMLInputElement;
      expect(zone.value).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
      await fireEvent.input(zone, { target: { value: '' } });
      await fireEvent.click(screen.getByRole('radio', { name: 'Now' }));
      await fireEvent.click(screen.getByRole('radio', { name: 'Repeat…' }));
      expect((screen.getByRole('combobox', { name: 'Time zone' }) as HTMLInputElement).value).toBe(''); // a cleared zone stays cleared
    } finally {
      made.mockRestore();
    }
  });

  it('previews the next three fires of a preset and stores a schedule, not a task', async () => {
    const { b, schedules, prompt } = form();
    await fireEvent.input(prompt, { target: { value: 'Update the dependencies' } });
    await fireEvent.click(screen.getByRole('radio', { name: 'Repeat…' }));
    await fireEvent.change(screen.getByRole('combobox', { name: 'Repeat' }), { target: { value: 'weekdays' } });
    await fireEvent.input(screen.getByLabelText('At'), { target: { value: '02:00' } });
    await fireEvent.input(screen.getByRole('combobox', { name: 'Time zone' }), { target: { value: 'Europe/Berlin' } });
    const cron = screen.getByRole('textbox', { name: 'Cron expression' }) as HTMLInputElement;
    await waitFor(() => expect(cron.value).toBe('0 2 * * 1-5'));
    await waitFor(() => expect(screen.getByLabelText('Next fires').textContent).toBe('Mon 7 Dec 02:00 · Tue 8 Dec 02:00 · Wed 9 Dec 02:00'));
    expect(b.argsOf('ScheduleService.Preview')).toContainEqual(['0 2 * * 1-5', 'Europe/Berlin']);
    expect(screen.getByText(/Runs weekdays at 02:00 \(Europe\/Berlin\)/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Add schedule' }));
    await waitFor(() => expect(schedules.schedules).toHaveLength(1));
    expect(b.count('TaskService.Create')).toBe(0);
    expect(b.argsOf('ScheduleService.Create')[0][0]).toMatchObject({ cron: '0 2 * * 1-5', tz: 'Europe/Berlin', task: { prompt: 'Update the dependencies', runs: 1 } });
    expect(screen.getByRole('status').textContent).toMatch(/Scheduled “Update the dependencies”: next run Mon 7 Dec 02:00 \(Europe\/Berlin\)/);
  });

  it('refuses a bad cron expression with the backend sentence and stores nothing', async () => {
    const { b, prompt } = form();
    await fireEvent.input(prompt, { target: { value: 'x' } });
    await fireEvent.click(screen.getByRole('radio', { name: 'Repeat…' }));
    await fireEvent.change(screen.getByRole('combobox', { name: 'Repeat' }), { target: { value: 'custom' } });
    await fireEvent.input(screen.getByRole('textbox', { name: 'Cron expression' }), { target: { value: '0 2 * *' } });
    const msg = REFUSED['0 2 * *'];
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(msg));
    await fireEvent.click(screen.getByRole('button', { name: 'Add schedule' }));
    expect(b.count('ScheduleService.Create')).toBe(0);
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain(msg);
  });

  it('sends a start time and says when the task starts', async () => {
    const { b, prompt } = form();
    await fireEvent.input(prompt, { target: { value: 'Nightly build' } });
    await fireEvent.click(screen.getByRole('radio', { name: 'Start at…' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    expect(screen.getByRole('alert').textContent).toBe('Pick a start date and time, or start now.');
    const at = new Date(Date.now() + 86_400_000);
    const local = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}T02:00`;
    await fireEvent.input(screen.getByLabelText(/your local time/), { target: { value: local } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    await waitFor(() => expect(b.count('TaskService.Create')).toBe(1));
    expect(b.argsOf('TaskService.Create')[0][0]).toMatchObject({ prompt: 'Nightly build', not_before: new Date(local).toISOString() });
    expect(screen.getByRole('status').textContent).toMatch(/It starts at /);
  });
});

describe('SchedulesScreen', () => {
  const nightlyInput: ScheduleInput = { name: 'Nightly deps', cron: '30 2 * * *', tz: 'UTC', task: { title: '', prompt: 'Update deps', priority: 0, base: '', labels: [], runs: 1 } };

  /**
   * The Schedules screen over one schedule and one task scheduled for later,
   * with a backend that answers each action as Go does and lists the result.
   */
  async function seeded() {
    let schedules = [scheduleOf('s1', nightlyInput)];
    const later = taskView({ id: 'later1', title: 'Later', prompt: 'Later work', not_before: '2026-12-05T09:00:00Z' });
    let queued: TaskView | null = null;
    const log: ScheduleRun[] = [];
    const set = (over: Partial<ScheduleView>) => (schedules = [{ ...schedules[0], ...over }])[0];
    const b = new StubBackend({
      'ScheduleService.List': () => schedules,
      'ScheduleService.Scheduled': () => [later],
      'ScheduleService.Preview': preview,
      'ScheduleService.SetPaused': (_id, paused) => set(paused ? { paused, next_fire: undefined } : { paused, next_fire: '2026-12-05T02:30:00Z' }),
      'ScheduleService.RunNow': () => {
        queued = taskView({ id: 'q1', prompt: 'Update deps' });
        log.push({ id: 1, schedule_id: 's1', at: NOW.toISOString(), due: NOW.toISOString(), outcome: 'queued', task_id: queued.id, note: 'run now from the window' });
        set({ last_fire: NOW.toISOString(), last_task: { id: queued.id, title: '', status: 'pending' } });
        return queued;
      },
      'ScheduleService.Log': () => log,
      'ScheduleService.Update': (id, input) => set(scheduleOf(id, input)),
      'ScheduleService.Delete': () => void (schedules = []),
    });
    const store = new ScheduleStore(b);
    await store.load();
    const opened: string[] = [];
    render(SchedulesScreen, { store, onopen: (id: string) => opened.push(id) });
    return { b, store, opened, queuedTask: () => queued };
  }

  it('lists a schedule with its cron in words, next fire and task, and the tasks scheduled for later', async () => {
    await seeded();
    const row = screen.getByRole('row', { name: 'Nightly deps' });
    expect(row.textContent).toMatch(/every day at 02:30/);
    expect(row.textContent).toMatch(/30 2 \* \* \*/);
    expect(row.querySelector('[data-col="next"]')!.textContent).toBe(formatWhen('2026-12-05T02:30:00Z'));
    expect(row.textContent).toMatch(/Update deps/);
    const later = screen.getByRole('list', { name: 'Tasks scheduled for later' });
    expect(within(later).getByRole('button', { name: 'Later' })).toBeTruthy();
  });

  it('pauses, resumes, runs now and deletes', async () => {
    const { b, store, opened, queuedTask } = await seeded();
    await fireEvent.click(screen.getByRole('button', { name: 'Pause Nightly deps' }));
    await waitFor(() => expect(store.schedules[0].paused).toBe(true));
    expect(b.argsOf('ScheduleService.SetPaused')).toEqual([['s1', true]]);
    expect((screen.getByRole('button', { name: 'Run Nightly deps now' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('row', { name: 'Nightly deps' }).querySelector('[data-col="next"]')!.textContent).toBe('paused');
    await fireEvent.click(screen.getByRole('button', { name: 'Resume Nightly deps' }));
    await waitFor(() => expect(store.schedules[0].next_fire).toBe('2026-12-05T02:30:00Z'));
    await fireEvent.click(screen.getByRole('button', { name: 'Run Nightly deps now' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Queued “Update deps” from “Nightly deps”.'));
    expect(b.argsOf('ScheduleService.RunNow')).toEqual([['s1']]);
    expect(queuedTask()?.prompt).toBe('Update deps');
    await fireEvent.click(await screen.findByRole('button', { name: 'Open the last task of Nightly deps' }));
    expect(opened).toHaveLength(1);
    await fireEvent.click(screen.getByRole('button', { name: 'Delete Nightly deps' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Delete schedule' }));
    await waitFor(() => expect(store.schedules).toHaveLength(0));
    expect(screen.getByText(/No recurring tasks/)).toBeTruthy();
    expect(b.argsOf('ScheduleService.Delete')).toEqual([['s1']]);
  });

  it('edits a schedule: previews the new expression, refuses a bad one, saves, and lists its recent fires', async () => {
    const { b, store } = await seeded();
    await fireEvent.click(screen.getByRole('button', { name: 'Run Nightly deps now' }));
    await waitFor(() => expect(store.note).toMatch(/^Queued/));
    await fireEvent.click(await screen.findByRole('button', { name: 'Edit Nightly deps' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit “Nightly deps”' });
    await waitFor(() => expect(within(dialog).getByRole('list', { name: 'Recent fires' }).textContent).toMatch(/queued a task — run now from the window/));
    const cron = within(dialog).getByRole('textbox', { name: 'Cron expression' });
    await fireEvent.input(cron, { target: { value: '0 25 * * *' } });
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe(REFUSED['0 25 * * *']));
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    expect(b.count('ScheduleService.Update')).toBe(0);
    await fireEvent.input(cron, { target: { value: '0 9 * * 1-5' } });
    await waitFor(() => expect(within(dialog).getByLabelText('Next fires').textContent).toBe('Mon 7 Dec 09:00 · Tue 8 Dec 09:00 · Wed 9 Dec 09:00'));
    await fireEvent.input(within(dialog).getByRole('textbox', { name: /Schedule name/ }), { target: { value: 'Morning deps' } });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(b.argsOf('ScheduleService.Update')[0]).toMatchObject(['s1', { name: 'Morning deps', cron: '0 9 * * 1-5', tz: 'UTC' }]);
    expect(store.schedules[0]).toMatchObject({ display: 'Morning deps', cron: '0 9 * * 1-5', cron_text: 'weekdays at 09:00', next_fire: '2026-12-07T09:00:00Z' });
    expect(screen.getByRole('row', { name: 'Morning deps' }).textContent).toMatch(/weekdays at 09:00/);
  });

  it('shows a failed action as one line and keeps the list', async () => {
    const { b, store } = await seeded();
    // Deleted meanwhile (another window, the CLI): Go says it does not exist.
    const gone = callError('schedule: the log of a deleted schedule').replace('<id>', 's1');
    b.failNext('ScheduleService.Delete', gone);
    await fireEvent.click(screen.getByRole('button', { name: 'Delete Nightly deps' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Delete schedule' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(gone));
    expect(store.schedules).toHaveLength(1);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { render, screen, fireEvent, waitFor, within } from '@testing-library/svelte';
import { FakeBackend } from '../backend/fake';
import { TaskStore } from '../tasks/tasks.svelte';
import NewTaskForm from '../tasks/NewTaskForm.svelte';
import SchedulesScreen from './SchedulesScreen.svelte';
import { ScheduleStore } from './schedules.svelte';
import { describeCron, parseCron } from '../backend/fake-cron';
import { formatWhen, localInputToISO, presetCron } from './when';

// Friday 4 December 2026, 10:00 UTC.
const NOW = new Date('2026-12-04T10:00:00Z');

function form() {
  const b = new FakeBackend({ seed: false, now: () => NOW });
  const tasks = new TaskStore(b);
  const schedules = new ScheduleStore(b);
  render(NewTaskForm, { store: tasks, branches: ['main'], schedules });
  return { b, tasks, schedules, prompt: screen.getByRole('textbox', { name: /prompt/i }) as HTMLTextAreaElement };
}

const calls = (b: FakeBackend, m: string) => b.calls.filter((c) => c.method === m);

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

  it('the fake reads cron as the Go side does', () => {
    const s = parseCron('0 2 * * 1-5', 'Europe/Berlin');
    expect(s.next(NOW)!.toISOString()).toBe('2026-12-07T01:00:00.000Z');
    expect(describeCron('0 2 * * 1-5')).toBe('weekdays at 02:00');
    expect(() => parseCron('61 * * * *', '')).toThrow('Invalid cron expression "61 * * * *": end of range (61) above maximum (59): 61 (expected five fields');
    expect(() => parseCron('0 2 * * *', 'Mars/Olympus')).toThrow('Unknown time zone "Mars/Olympus"');
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
    expect(screen.getByText(/Runs weekdays at 02:00 \(Europe\/Berlin\)/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Add schedule' }));
    await waitFor(() => expect(schedules.schedules).toHaveLength(1));
    expect(calls(b, 'TaskService.Create')).toHaveLength(0);
    expect(calls(b, 'ScheduleService.Create')[0].args[0]).toMatchObject({ cron: '0 2 * * 1-5', tz: 'Europe/Berlin', task: { prompt: 'Update the dependencies', runs: 1 } });
    expect(screen.getByRole('status').textContent).toMatch(/Scheduled “Update the dependencies”: next run Mon 7 Dec 02:00 \(Europe\/Berlin\)/);
  });

  it('refuses a bad cron expression with the backend sentence and stores nothing', async () => {
    const { b, prompt } = form();
    await fireEvent.input(prompt, { target: { value: 'x' } });
    await fireEvent.click(screen.getByRole('radio', { name: 'Repeat…' }));
    await fireEvent.change(screen.getByRole('combobox', { name: 'Repeat' }), { target: { value: 'custom' } });
    await fireEvent.input(screen.getByRole('textbox', { name: 'Cron expression' }), { target: { value: '0 2 * *' } });
    const msg = 'Invalid cron expression "0 2 * *": expected exactly 5 fields, found 4: [0 2 * *] (expected five fields: minute hour day-of-month month day-of-week, or @daily, @every 1h).';
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(msg));
    await fireEvent.click(screen.getByRole('button', { name: 'Add schedule' }));
    expect(calls(b, 'ScheduleService.Create')).toHaveLength(0);
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
    await waitFor(() => expect(calls(b, 'TaskService.Create')).toHaveLength(1));
    expect(calls(b, 'TaskService.Create')[0].args[0]).toMatchObject({ prompt: 'Nightly build', not_before: new Date(local).toISOString() });
    expect(screen.getByRole('status').textContent).toMatch(/It starts at /);
  });
});

describe('SchedulesScreen', () => {
  async function seeded() {
    const b = new FakeBackend({ seed: false, now: () => NOW });
    const store = new ScheduleStore(b);
    await b.invoke('ScheduleService.Create', { name: 'Nightly deps', cron: '30 2 * * *', tz: 'UTC', task: { title: '', prompt: 'Update deps', priority: 0, base: '', labels: [], runs: 1 } });
    await b.invoke('TaskService.Create', { title: 'Later', prompt: 'Later work', priority: 0, base: '', labels: [], runs: 1, not_before: '2026-12-05T09:00:00Z' });
    await store.load();
    const opened: string[] = [];
    render(SchedulesScreen, { store, onopen: (id: string) => opened.push(id) });
    return { b, store, opened };
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
    const { b, store, opened } = await seeded();
    await fireEvent.click(screen.getByRole('button', { name: 'Pause Nightly deps' }));
    await waitFor(() => expect(store.schedules[0].paused).toBe(true));
    expect((screen.getByRole('button', { name: 'Run Nightly deps now' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('row', { name: 'Nightly deps' }).querySelector('[data-col="next"]')!.textContent).toBe('paused');
    await fireEvent.click(screen.getByRole('button', { name: 'Resume Nightly deps' }));
    await waitFor(() => expect(store.schedules[0].next_fire).toBe('2026-12-05T02:30:00Z'));
    await fireEvent.click(screen.getByRole('button', { name: 'Run Nightly deps now' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Queued “Update deps” from “Nightly deps”.'));
    expect([...b.tasks.values()].filter((t) => t.prompt === 'Update deps')).toHaveLength(1);
    await fireEvent.click(await screen.findByRole('button', { name: 'Open the last task of Nightly deps' }));
    expect(opened).toHaveLength(1);
    await fireEvent.click(screen.getByRole('button', { name: 'Delete Nightly deps' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Delete schedule' }));
    await waitFor(() => expect(store.schedules).toHaveLength(0));
    expect(screen.getByText(/No recurring tasks/)).toBeTruthy();
    expect([...b.tasks.values()].filter((t) => t.prompt === 'Update deps')).toHaveLength(1);
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
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toMatch(/^Invalid cron expression "0 25 \* \* \*": end of range \(25\) above maximum \(23\)/));
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    expect(calls(b, 'ScheduleService.Update')).toHaveLength(0);
    await fireEvent.input(cron, { target: { value: '0 9 * * 1-5' } });
    await waitFor(() => expect(within(dialog).getByLabelText('Next fires').textContent).toBe('Mon 7 Dec 09:00 · Tue 8 Dec 09:00 · Wed 9 Dec 09:00'));
    await fireEvent.input(within(dialog).getByRole('textbox', { name: /Schedule name/ }), { target: { value: 'Morning deps' } });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(store.schedules[0]).toMatchObject({ display: 'Morning deps', cron: '0 9 * * 1-5', cron_text: 'weekdays at 09:00', next_fire: '2026-12-07T09:00:00Z' });
    expect(screen.getByRole('row', { name: 'Morning deps' }).textContent).toMatch(/weekdays at 09:00/);
  });

  it('shows a failed action as one line and keeps the list', async () => {
    const { b, store } = await seeded();
    b.failNext('ScheduleService.Delete', 'Schedule "x" does not exist.');
    await fireEvent.click(screen.getByRole('button', { name: 'Delete Nightly deps' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Delete schedule' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Schedule "x" does not exist.'));
    expect(store.schedules).toHaveLength(1);
  });
});

// Times and cron presets of the Schedules screen and the New task form.

/** A repeat preset of the New task form; `custom` is a cron expression typed in. */
export type Preset = 'hourly' | 'daily' | 'weekdays' | 'weekly' | 'custom';

export const PRESETS: { id: Preset; label: string }[] = [
  { id: 'hourly', label: 'Every hour' },
  { id: 'daily', label: 'Every day at…' },
  { id: 'weekdays', label: 'Weekdays (Mon–Fri) at…' },
  { id: 'weekly', label: 'Every week on…' },
  { id: 'custom', label: 'Custom cron expression' },
];

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The cron expression of a preset at "HH:MM" (minute of the hour for hourly); null for custom or a bad time. */
export function presetCron(p: Preset, time: string, weekday = 1): string | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(time.trim());
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return null;
  const h = Number(m[1]);
  const mi = Number(m[2]);
  switch (p) {
    case 'hourly':
      return `${mi} * * * *`;
    case 'daily':
      return `${mi} ${h} * * *`;
    case 'weekdays':
      return `${mi} ${h} * * 1-5`;
    case 'weekly':
      return `${mi} ${h} * * ${weekday}`;
    default:
      return null;
  }
}

/** The machine's IANA zone ("UTC" when the browser cannot say). */
export function localZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Zones offered in the picker (any IANA name may be typed). */
export const ZONES = ['UTC', 'Europe/London', 'Europe/Berlin', 'Europe/Paris', 'Europe/Madrid', 'America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'America/Sao_Paulo', 'Asia/Tokyo', 'Asia/Shanghai', 'Asia/Kolkata', 'Asia/Singapore', 'Australia/Sydney'];

/**
 * An instant for people: "Mon 7 Dec 02:00" in `zone` (default the machine's),
 * the year added when it is not this year's. "" for none.
 */
export function formatWhen(iso: string | undefined, zone?: string, now: Date = new Date()): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const opts: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone };
  const year = (x: Date) => new Intl.DateTimeFormat('en-GB', { year: 'numeric', timeZone: zone }).format(x);
  if (year(d) !== year(now)) opts.year = 'numeric';
  return new Intl.DateTimeFormat('en-GB', opts).format(d).replace(/,/g, '');
}

/** A datetime-local value ("2026-12-02T02:00", the machine's zone) as RFC 3339 UTC; null when empty or bad. */
export function localInputToISO(v: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The "When" part of the New task form. */
export interface When {
  mode: 'now' | 'at' | 'repeat';
  /** Start at, a datetime-local value. */
  at: string;
  preset: Preset;
  /** "HH:MM" of the daily, weekday and weekly presets. */
  time: string;
  /** The minute of the hour of the hourly preset. */
  minute: number;
  weekday: number;
  /** The cron expression sent (the preset's, or typed in for custom). */
  cron: string;
  /** The IANA zone; "" until Repeat is first picked, when WhenPicker fills in the machine's. */
  tz: string;
  /** Optional schedule name. */
  name: string;
}

export function newWhen(): When {
  return { mode: 'now', at: '', preset: 'daily', time: '02:00', minute: 0, weekday: 1, cron: '0 2 * * *', tz: '', name: '' };
}

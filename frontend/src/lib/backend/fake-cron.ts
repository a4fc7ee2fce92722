// A small five-field cron reader for the fake backend (the real one is
// robfig/cron in backend/schedule): fields *, N, A-B, lists and /steps,
// the @hourly…@yearly descriptors and @every DURATION, in an IANA zone. Its
// error sentences are the ones backend/usererr gives for the same input.

const HINT = '(expected five fields: minute hour day-of-month month day-of-week, or @daily, @every 1h)';
const BOUNDS: [number, number][] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 6],
];
const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

export interface FakeSpec {
  next(after: Date): Date | null;
}

function bad(expr: string, why: string): Error {
  return new Error(`Invalid cron expression "${expr}": ${why} ${HINT}.`);
}

function field(expr: string, text: string, [lo, hi]: [number, number]): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number.parseInt(stepText, 10);
    let a = lo;
    let b = hi;
    if (range !== '*' && range !== '?') {
      const [x, y] = range.split('-');
      a = Number.parseInt(x, 10);
      if (Number.isNaN(a)) throw bad(expr, `failed to parse int from ${x}: strconv.Atoi: parsing "${x}": invalid syntax`);
      b = y === undefined ? (stepText === undefined ? a : hi) : Number.parseInt(y, 10);
      if (Number.isNaN(b)) throw bad(expr, `failed to parse int from ${y}: strconv.Atoi: parsing "${y}": invalid syntax`);
    }
    if (a < lo) throw bad(expr, `beginning of range (${a}) below minimum (${lo}): ${part}`);
    if (b > hi) throw bad(expr, `end of range (${b}) above maximum (${hi}): ${part}`);
    if (!(step > 0)) throw bad(expr, `step of range should be a positive number: ${part}`);
    for (let v = a; v <= b; v += step) out.add(v);
  }
  return out;
}

/** The wall clock of `d` in `tz`. */
function wall(fmt: Intl.DateTimeFormat, d: Date): { mo: number; dom: number; dow: number; h: number; mi: number } {
  const p: Record<string, string> = {};
  for (const x of fmt.formatToParts(d)) p[x.type] = x.value;
  const dow = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(p.weekday);
  return { mo: Number(p.month), dom: Number(p.day), dow, h: Number(p.hour) % 24, mi: Number(p.minute) };
}

/** Parses expr in zone tz ("" = UTC); throws the Go side's sentence on bad input. */
export function parseCron(expr: string, tz: string): FakeSpec {
  expr = expr.trim();
  if (!expr) throw new Error('A schedule needs a cron expression (for example "0 2 * * 1-5").');
  if (expr.startsWith('CRON_TZ=') || expr.startsWith('TZ=')) throw new Error('Give the time zone with --tz, not inside the cron expression.');
  const zone = tz.trim() || 'UTC';
  if (zone.toLowerCase() === 'local') throw new Error('Name the time zone (for example Europe/Berlin), not Local.');
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', month: 'numeric', day: 'numeric', weekday: 'short', hour: 'numeric', minute: 'numeric' });
  } catch {
    throw new Error(`Unknown time zone "${tz}" (use an IANA name such as Europe/Berlin or UTC).`);
  }
  const every = /^@every\s+(-?\d+)([smh])$/.exec(expr);
  if (every) {
    const ms = Number(every[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[every[2] as 's' | 'm' | 'h'];
    if (ms < 60_000) throw new Error(`The interval of "${expr}" must be at least 1m (a schedule fires at most once a minute).`);
    return { next: (after) => new Date(Math.floor(after.getTime() / 1000) * 1000 + ms) };
  }
  const fields = (DESCRIPTORS[expr] ?? expr).split(/\s+/);
  if (expr.startsWith('@') && !DESCRIPTORS[expr]) throw bad(expr, `unrecognized descriptor: ${expr}`);
  if (fields.length !== 5) throw bad(expr, `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const [mi, h, dom, mo, dow] = fields.map((f, i) => field(expr, f, BOUNDS[i]));
  const domAny = fields[2] === '*' || fields[2] === '?';
  const dowAny = fields[4] === '*' || fields[4] === '?';
  return {
    next(after) {
      let t = Math.floor(after.getTime() / 60_000) * 60_000 + 60_000;
      const end = t + 5 * 366 * 86_400_000;
      while (t < end) {
        const w = wall(fmt, new Date(t));
        // robfig: when both day fields are restricted, either may match.
        const dayOk = domAny || dowAny ? dom.has(w.dom) && dow.has(w.dow) : dom.has(w.dom) || dow.has(w.dow);
        if (!mo.has(w.mo) || !dayOk) t += ((23 - w.h) * 60 + (60 - w.mi)) * 60_000;
        else if (!h.has(w.h)) t += (60 - w.mi) * 60_000;
        else if (!mi.has(w.mi)) t += 60_000;
        else return new Date(t);
      }
      return null;
    },
  };
}

/** The expression in words for the common shapes, as backend/schedule.Describe says it. */
export function describeCron(expr: string): string {
  expr = expr.trim();
  const fixed: Record<string, string> = {
    '@hourly': 'every hour at :00',
    '@daily': 'every day at 00:00',
    '@midnight': 'every day at 00:00',
    '@weekly': 'every Sunday at 00:00',
    '@monthly': 'on the 1st of every month at 00:00',
    '@yearly': 'every 1 January at 00:00',
    '@annually': 'every 1 January at 00:00',
  };
  if (fixed[expr]) return fixed[expr];
  const f = expr.split(/\s+/);
  if (f.length !== 5) return '';
  const [mi, h, dom, mo, dow] = f;
  const num = (s: string, max: number) => (/^\d+$/.test(s) && Number(s) <= max ? Number(s) : null);
  if (f.every((x) => x === '*')) return 'every minute';
  if (/^\*\/\d+$/.test(mi) && f.slice(1).every((x) => x === '*')) return `every ${mi.slice(2)} minutes`;
  const m = num(mi, 59);
  if (m === null || mo !== '*') return '';
  if (h === '*' && dom === '*' && dow === '*') return `every hour at :${String(m).padStart(2, '0')}`;
  const hh = num(h, 23);
  if (hh === null) return '';
  const at = `${String(hh).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
  if (dom === '*' && dow === '*') return `every day at ${at}`;
  if (dom === '*' && dow === '1-5') return `weekdays at ${at}`;
  if (dom === '*' && (dow === '0,6' || dow === '6,0')) return `weekends at ${at}`;
  const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const d = num(dow, 7);
  if (dom === '*' && d !== null) return `every ${days[d % 7]} at ${at}`;
  const n = num(dom, 31);
  if (dow === '*' && n !== null && n >= 1) return `on day ${n} of every month at ${at}`;
  return '';
}

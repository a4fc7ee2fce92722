// One table of backend calls run against both the real Go services (the
// `contract` browser flow, e2e/real/flows.mjs) and the fake
// (src/lib/backend/contract.test.ts): both must give exactly `expect`, error
// texts included, so the fake cannot drift from Go unnoticed.
//
// A case's run(call) makes calls with call(method, ...args), which resolves to
// { ok: value } or { err: text }, and returns what is compared (a projection of
// results that do not depend on ids, clocks or paths). Task ids in error texts
// read <id>.

const input = (over = {}) => ({ title: '', prompt: 'Do the thing', priority: 0, base: '', labels: [], runs: 1, ...over });
/**
 * Replaces the given task ids in an outcome's error text with <id>, and the
 * working directory's path (a temp dir for Go, a fixed one in the fake) with
 * <repo>.
 */
export const normalize = (r, ...ids) =>
  r && typeof r.err === 'string'
    ? { err: ids.reduce((e, id) => (id ? e.replaceAll(id, '<id>') : e), r.err).replace(/ in \/\S+\.$/, ' in <repo>.') }
    : r;

const settingsWith = async (call, change) => {
  const got = await call('SettingsService.Get');
  if (!got.ok) return got;
  const s = structuredClone(got.ok.settings);
  change(s);
  const r = await call('SettingsService.Save', s);
  if (!r.ok) return normalize(r);
  return { ok: { saved: r.ok.saved, errors: r.ok.errors } };
};

export const cases = [
  {
    name: 'create: a pending task with what was sent',
    async run(call) {
      const r = await call('TaskService.Create', input({ title: ' Ship it ', prompt: 'Ship the release', priority: 2, labels: ['release'], runs: 2 }));
      if (!r.ok) return r;
      const { title, prompt, status, priority, labels, runs, completed_runs, skip } = r.ok;
      return { ok: { title, prompt, status, priority, labels, runs, completed_runs, skip } };
    },
    expect: { ok: { title: 'Ship it', prompt: 'Ship the release', status: 'pending', priority: 2, labels: ['release'], runs: 2, completed_runs: 0, skip: false } },
  },
  { name: 'create: empty prompt', run: (call) => call('TaskService.Create', input({ prompt: '   ' })), expect: { err: 'Prompt is empty.' } },
  { name: 'create: negative runs', run: (call) => call('TaskService.Create', input({ runs: -1 })), expect: { err: 'Runs must be between 1 and 100.' } },
  {
    name: 'create: unknown base ref',
    run: async (call) => normalize(await call('TaskService.Create', input({ base: 'no-such-branch' }))),
    expect: { err: 'The base ref "no-such-branch" is not a branch or commit in <repo>.' },
  },
  { name: 'get: unknown task', run: async (call) => normalize(await call('TaskService.Get', '0000000000000000')), expect: { err: 'Task "0000000000000000" does not exist.' } },
  {
    name: 'update: the prompt cannot be emptied',
    async run(call) {
      const t = await call('TaskService.Create', input());
      const r = await call('TaskService.Update', t.ok.id, { title: '', prompt: ' ', labels: [], priority: 0, runs: 1, base: '', command: '', tools: {} });
      return normalize(r);
    },
    expect: { err: 'Prompt is empty.' },
  },
  {
    name: 'answer: a task with no questions',
    async run(call) {
      const t = await call('TaskService.Create', input());
      return normalize(await call('TaskService.Answer', t.ok.id, 'Yes'), t.ok.id);
    },
    expect: { err: 'This task is pending and has no questions to answer.' },
  },
  {
    name: 'answer: empty',
    async run(call) {
      const t = await call('TaskService.Create', input());
      return normalize(await call('TaskService.Answer', t.ok.id, '  '));
    },
    expect: { err: 'The answer is empty.' },
  },
  { name: 'import: malformed markdown', run: (call) => call('TaskService.Import', 'hello', false), expect: { err: 'Invalid task markdown: line 1: the file must start with a --- frontmatter line.' } },
  {
    name: 'export then import: a new task with the same prompt',
    async run(call) {
      const t = await call('TaskService.Create', input({ title: 'Original', prompt: 'Round trip me' }));
      const md = await call('TaskService.Export', t.ok.id);
      if (!md.ok) return md;
      const r = await call('TaskService.Import', md.ok.replace(/^title: .*$/m, 'title: Copy'), false);
      if (!r.ok) return r;
      const t2 = r.ok.task;
      return { ok: { title: t2.title, prompt: t2.prompt, status: t2.status, new_id: t2.id !== t.ok.id, notes: r.ok.notes } };
    },
    expect: { ok: { title: 'Copy', prompt: 'Round trip me', status: 'pending', new_id: true, notes: [] } },
  },
  {
    name: 'import: the same file twice is refused, a second copy on request',
    async run(call) {
      const md = '---\nid: 2025-10-03-retry-flaky-upload\ntitle: Retry flaky uploads\nstatus: done\ncompletedRuns: 1\nassignee: dana\n---\n\n## Prompt\n\nRetry the upload.\n';
      const first = await call('TaskService.Import', md, false);
      if (!first.ok) return first;
      const second = normalize(await call('TaskService.Import', md, false), first.ok.task.id);
      const again = await call('TaskService.Import', md, true);
      return { ok: { notes: first.ok.notes, status: first.ok.task.status, second, again: !!again.ok && again.ok.task.id !== first.ok.task.id } };
    },
    expect: {
      ok: {
        notes: ['unknown key "assignee" kept'],
        status: 'done',
        second: { err: 'Task "2025-10-03-retry-flaky-upload" was already imported (as <id>); nothing changed: import it again (--again) to make a second copy.' },
        again: true,
      },
    },
  },
  {
    name: 'create: an unknown command template',
    run: (call) => call('TaskService.Create', input({ command: 'no-such-template' })),
    expect: { err: 'Command "no-such-template" does not exist.' },
  },
  {
    name: 'stop: a task that is not running',
    async run(call) {
      const t = await call('TaskService.Create', input());
      return normalize(await call('RunService.Stop', t.ok.id), t.ok.id);
    },
    expect: { err: 'This task is pending: only ongoing tasks can be stopped.' },
  },
  {
    name: 'inject: empty text',
    async run(call) {
      const t = await call('TaskService.Create', input());
      return normalize(await call('RunService.Inject', t.ok.id, '  '));
    },
    expect: { err: 'The prompt is empty.' },
  },
  { name: 'settings: concurrency over the limit', run: (call) => settingsWith(call, (s) => (s.concurrency = 33)), expect: { ok: { saved: false, errors: [{ path: 'concurrency', message: 'Must be between 1 and 32 (got 33).' }] } } },
  { name: 'settings: concurrency at the limit', run: (call) => settingsWith(call, (s) => (s.concurrency = 32)), expect: { ok: { saved: true, errors: [] } } },
  { name: 'settings: concurrency below 1', run: (call) => settingsWith(call, (s) => (s.concurrency = 0)), expect: { ok: { saved: false, errors: [{ path: 'concurrency', message: 'Must be between 1 and 32 (got 0).' }] } } },
  {
    name: 'usage: range reversed',
    run: (call) => call('SettingsService.Usage', { from: '2026-12-31', to: '2026-01-01' }),
    expect: { err: 'The usage range needs two dates, from before to (YYYY-MM-DD).' },
  },
  { name: 'usage: not a date', run: (call) => call('SettingsService.Usage', { from: 'yesterday', to: '2026-01-01' }), expect: { err: 'The usage range needs two dates, from before to (YYYY-MM-DD).' } },
  { name: 'usage: over a year', run: (call) => call('SettingsService.Usage', { from: '2024-01-01', to: '2026-01-01' }), expect: { err: 'The usage range is limited to one year.' } },
  {
    name: 'usage: one row per day',
    async run(call) {
      const r = await call('SettingsService.Usage', { from: '2026-01-01', to: '2026-01-07' });
      return r.ok ? { ok: r.ok.by_day.map((d) => d.key) } : r;
    },
    expect: { ok: ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05', '2026-01-06', '2026-01-07'] },
  },
  { name: 'commands: a name with a space', run: (call) => call('CommandService.Save', { id: '', name: 'Add tests', body: 'x' }), expect: { err: 'Command name "Add tests" must be 1-64 letters, digits, \'-\', \'_\' or \'.\'.' } },
  { name: 'commands: empty body', run: (call) => call('CommandService.Save', { id: '', name: 'add-tests', body: ' ' }), expect: { err: 'The command text is empty.' } },
  {
    name: 'commands: a duplicate name',
    async run(call) {
      await call('CommandService.Save', { id: '', name: 'dup', body: 'one' });
      return call('CommandService.Save', { id: '', name: 'dup', body: 'two' });
    },
    expect: { err: 'A command named "dup" already exists.' },
  },
  { name: 'tools: an unknown tool', run: (call) => call('SettingsService.TestTool', 'nope'), expect: { err: 'Unknown tool nope.' } },
  { name: 'reorder: an unknown task', run: (call) => call('TaskService.Reorder', ['0000000000000000']), expect: { err: 'Task "0000000000000000" does not exist.' } },
  {
    name: 'skip: a pending task',
    async run(call) {
      const t = await call('TaskService.Create', input());
      const r = await call('TaskService.SetSkip', t.ok.id, true);
      return r.ok ? { ok: { skip: r.ok.skip, status: r.ok.status } } : normalize(r);
    },
    expect: { ok: { skip: true, status: 'pending' } },
  },
  // Schedules (issue 21): the Repeat preview's sentences are the CLI's.
  {
    name: 'schedule preview: weekdays at 02:00 in words, three fires',
    async run(call) {
      const r = await call('ScheduleService.Preview', '0 2 * * 1-5', 'Europe/Berlin');
      if (!r.ok) return r;
      return { ok: { text: r.ok.text, tz: r.ok.tz, count: r.ok.next.length, utc: r.ok.next.every((n) => /^\d{4}-\d\d-\d\dT0[01]:00:00Z$/.test(n)) } };
    },
    expect: { ok: { text: 'weekdays at 02:00', tz: 'Europe/Berlin', count: 3, utc: true } },
  },
  {
    name: 'schedule preview: four fields',
    run: (call) => call('ScheduleService.Preview', '0 2 * *', ''),
    expect: { err: 'Invalid cron expression "0 2 * *": expected exactly 5 fields, found 4: [0 2 * *] (expected five fields: minute hour day-of-month month day-of-week, or @daily, @every 1h).' },
  },
  {
    name: 'schedule preview: minute out of range',
    run: (call) => call('ScheduleService.Preview', '61 * * * *', 'UTC'),
    expect: { err: 'Invalid cron expression "61 * * * *": end of range (61) above maximum (59): 61 (expected five fields: minute hour day-of-month month day-of-week, or @daily, @every 1h).' },
  },
  { name: 'schedule preview: unknown zone', run: (call) => call('ScheduleService.Preview', '0 2 * * *', 'Mars/Olympus'), expect: { err: 'Unknown time zone "Mars/Olympus" (use an IANA name such as Europe/Berlin or UTC).' } },
  { name: 'schedule preview: empty', run: (call) => call('ScheduleService.Preview', '', ''), expect: { err: 'A schedule needs a cron expression (for example "0 2 * * 1-5").' } },
  {
    name: 'schedule: an interval under a minute or negative is refused, in the preview and at create',
    async run(call) {
      const zero = await call('ScheduleService.Preview', '@every 0s', '');
      const negative = await call('ScheduleService.Preview', '@every -5m', 'UTC');
      const before = await call('ScheduleService.List');
      const create = await call('ScheduleService.Create', { name: '', cron: '@every 30s', tz: 'UTC', task: input() });
      const after = await call('ScheduleService.List');
      return { ok: { zero: zero.err, negative: negative.err, create: create.err, stored: after.ok?.length - before.ok?.length } };
    },
    expect: {
      ok: {
        zero: 'The interval of "@every 0s" must be at least 1m (a schedule fires at most once a minute).',
        negative: 'The interval of "@every -5m" must be at least 1m (a schedule fires at most once a minute).',
        create: 'The interval of "@every 30s" must be at least 1m (a schedule fires at most once a minute).',
        stored: 0,
      },
    },
  },
  {
    name: 'schedule: create, pause (no next fire), run now refused while paused, delete',
    async run(call) {
      const c = await call('ScheduleService.Create', { name: 'Nightly', cron: '30 2 * * *', tz: 'UTC', task: input({ prompt: 'Update deps' }) });
      if (!c.ok) return c;
      const p = await call('ScheduleService.SetPaused', c.ok.id, true);
      const run = await call('ScheduleService.RunNow', c.ok.id);
      const d = await call('ScheduleService.Delete', c.ok.id);
      const again = normalize(await call('ScheduleService.Delete', c.ok.id), c.ok.id);
      return { ok: { display: c.ok.display, text: c.ok.cron_text, armed: !!c.ok.next_fire, paused: p.ok?.paused, next: p.ok?.next_fire ?? null, run: run.err, deleted: 'ok' in d, again: again.err } };
    },
    expect: { ok: { display: 'Nightly', text: 'every day at 02:30', armed: true, paused: true, next: null, run: 'Schedule Nightly is paused: resume it to run it now.', deleted: true, again: 'Schedule "<id>" does not exist.' } },
  },
  {
    name: 'schedule: a bad edit changes nothing; the log of a missing schedule',
    async run(call) {
      const c = await call('ScheduleService.Create', { name: 'Nightly', cron: '30 2 * * *', tz: 'UTC', task: input() });
      if (!c.ok) return c;
      const bad = await call('ScheduleService.Update', c.ok.id, { name: 'X', cron: '0 25 * * *', tz: 'UTC', task: input() });
      const list = await call('ScheduleService.List');
      const good = await call('ScheduleService.Update', c.ok.id, { name: '', cron: '0 9 * * 1-5', tz: 'UTC', task: input({ title: 'Deps' }) });
      const log = await call('ScheduleService.Log', c.ok.id);
      await call('ScheduleService.Delete', c.ok.id);
      const gone = normalize(await call('ScheduleService.Log', c.ok.id), c.ok.id);
      return { ok: { bad: bad.err, kept: list.ok?.[0]?.cron, display: good.ok?.display, text: good.ok?.cron_text, log: log.ok, gone: gone.err } };
    },
    expect: {
      ok: {
        bad: 'Invalid cron expression "0 25 * * *": end of range (25) above maximum (23): 25 (expected five fields: minute hour day-of-month month day-of-week, or @daily, @every 1h).',
        kept: '30 2 * * *',
        display: 'Deps',
        text: 'weekdays at 09:00',
        log: [],
        gone: 'Schedule "<id>" does not exist.',
      },
    },
  },
  {
    name: 'schedule: a repeat with a start time is refused',
    run: (call) => call('ScheduleService.Create', { name: '', cron: '@daily', tz: '', task: input({ not_before: '2030-01-01T00:00:00Z' }) }),
    expect: { err: 'A recurring task starts at its fires: give a start time or a repeat, not both.' },
  },
  {
    name: 'merge queue: a task that is not done',
    async run(call) {
      const t = await call('TaskService.Create', input());
      return normalize(await call('MergeQueueService.Add', t.ok.id, { target: '', strategy: '' }), t.ok.id);
    },
    expect: { err: 'This task is pending: only done tasks allow that.' },
  },
  {
    name: 'merge queue: a bad strategy',
    async run(call) {
      const t = await call('TaskService.Create', input());
      return normalize(await call('MergeQueueService.Add', t.ok.id, { target: '', strategy: 'sideways' }), t.ok.id);
    },
    expect: { err: 'Bad accept strategy: "sideways" (want merge, squash or rebase).' },
  },
  { name: 'merge queue: an unknown task', run: (call) => call('MergeQueueService.Add', '0000000000000000', { target: '', strategy: '' }), expect: { err: 'Task "0000000000000000" does not exist.' } },
  {
    name: 'merge queue: remove and send back a task that is not queued',
    async run(call) {
      const t = await call('TaskService.Create', input());
      const a = normalize(await call('MergeQueueService.Remove', t.ok.id), t.ok.id);
      const b = normalize(await call('MergeQueueService.SendBack', t.ok.id), t.ok.id);
      return { ok: [a, b] };
    },
    expect: { ok: [{ err: 'Merge queue entry of task "<id>" does not exist.' }, { err: 'Merge queue entry of task "<id>" does not exist.' }] },
  },
  {
    name: 'verify: an empty command, and unset where none is set',
    async run(call) {
      const wd = (await call('SettingsService.Get')).ok.settings.working_directory;
      const repo = (r) => (r.err ? { err: r.err.replace(JSON.stringify(wd), '"<repo>"') } : r);
      const empty = repo(await call('VerifyService.Set', wd, '   '));
      const unset = repo(await call('VerifyService.Unset', wd));
      const got = await call('VerifyService.Get', wd);
      return { ok: [empty, unset, got.ok ? got.ok.command : got] };
    },
    expect: { ok: [{ err: 'Verify command is empty.' }, { err: 'Verify command of repository "<repo>" does not exist.' }, ''] },
  },
];


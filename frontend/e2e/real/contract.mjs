// The contract flow: every call of the golden that Go writes from the bound
// services (src/lib/backend/calls-golden.json, app/calls_golden_test.go),
// replayed through the Wails seam of the real app, must answer what Go
// recorded, error sentences included. One app, the cases in order, as the Go
// test runs them in one world. The component tests' stubs answer with the
// same golden, so what they show is what this flow proves the window gets.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assert } from '../harness.mjs';

const goldenPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/lib/backend/calls-golden.json');

/** Replaces "$N" with the id call N returned and "<repo>" with the working directory, anywhere in v. */
function substitute(v, ids, repo) {
  if (typeof v === 'string') {
    if (v === '<repo>') return repo;
    const m = /^\$(\d+)$/.exec(v);
    return m && Number(m[1]) < ids.length ? ids[Number(m[1])] : v;
  }
  if (Array.isArray(v)) return v.map((x) => substitute(x, ids, repo));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, substitute(x, ids, repo)]));
  return v;
}

/** The id of what a call returned: its id, or its task's. */
const idOf = (res) => (typeof res?.id === 'string' ? res.id : typeof res?.task?.id === 'string' ? res.task.id : '');

/** JSON with every object's keys sorted, as Go writes a map. */
const canon = (v) => JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));

/** Makes an entry's calls through the page's bindings; returns its outcome as the golden writes it. */
async function replay(page, entry, repo) {
  const ids = [];
  const made = [];
  let out;
  for (const c of entry.calls) {
    const args = substitute(c.args, ids, repo);
    out = await page.evaluate(
      async ([m, a]) => {
        const [s, n] = m.split('.');
        try {
          const v = await window.go.app[s][n](...a);
          return { ok: v === undefined ? null : v };
        } catch (e) {
          return { err: typeof e === 'string' ? e : String(e?.message ?? e) };
        }
      },
      [c.method, args],
    );
    const id = 'ok' in out ? idOf(out.ok) : '';
    ids.push(id);
    if (id && !JSON.stringify(args).includes(JSON.stringify(id))) made.push(id);
  }
  const norm = (s) => made.reduce((t, id) => t.replaceAll(id, '<id>'), s).replaceAll(repo, '<repo>');
  if ('err' in out) return { err: norm(out.err) };
  let res = out.ok;
  if (entry.keep && res && typeof res === 'object' && !Array.isArray(res)) res = Object.fromEntries(entry.keep.map((k) => [k, res[k] ?? null]));
  return { ok: JSON.parse(norm(JSON.stringify(res))) };
}

export const contractFlows = {
  contract: {
    async run(page, { world }) {
      const golden = JSON.parse(fs.readFileSync(goldenPath, 'utf8'));
      assert(golden.length > 30, `the golden holds ${golden.length} calls`);
      const bad = [];
      for (const entry of golden) {
        const got = await replay(page, entry, world.repo);
        if (canon(got) !== canon(entry.outcome)) bad.push(`${entry.name}: got ${canon(got)}, want ${canon(entry.outcome)}`);
      }
      assert(bad.length === 0, `the real app answers otherwise than the Go services did (run go test ./app -run Golden -update after a Go change):\n  ${bad.join('\n  ')}`);
    },
  },
};

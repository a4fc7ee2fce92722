// Proves the contract check can fail (issue 39): a copy of the front end in
// a temp dir gets payloads that drifted from what the UI reads — as a Go
// change would regenerate events.gen.ts — and a hand-written API type with a
// union member Go does not have; svelte-check must then fail, each drift
// with an error of its own. The untouched tree is checked by `npm run check`.
//
//   node scripts/contract-drift.mjs
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Each drift: a file, the text replaced and its replacement, and how to know
 * the error it causes: a line of the reported file mentioning `field`, or, with
 * `file`, an error in that file whose message mentions `field`.
 */
const drifts = [
  {
    name: 'step_finished.exit_code renamed in the generated payload',
    path: 'src/lib/backend/events.gen.ts',
    from: 'export interface StepFinished extends StepAttempt {\n  outcome: ExecOutcome;\n  exit_code: number;',
    to: 'export interface StepFinished extends StepAttempt {\n  outcome: ExecOutcome;\n  exit_status: number;',
    field: 'exit_code',
  },
  {
    name: 'planner_asked.questions retyped in the generated payload',
    path: 'src/lib/backend/events.gen.ts',
    from: 'export interface PlannerAsked {\n  role: Role;\n  questions: string[];',
    to: 'export interface PlannerAsked {\n  role: Role;\n  questions: string;',
    field: 'questions',
  },
  {
    name: 'a union member of a hand-written API type with a field Go does not have',
    path: 'src/lib/backend/types.ts',
    from: 'budgets: { task: BudgetLimit | null;',
    to: 'budgets: { task: BudgetLimit | { usd: number | null; drifted: string } | null;',
    field: 'drifted',
    file: 'src/lib/backend/contract.check.ts',
  },
];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-drift-'));
try {
  for (const name of ['src', 'wailsjs', 'tsconfig.json', 'svelte.config.js', 'package.json']) {
    fs.cpSync(path.join(root, name), path.join(tmp, name), { recursive: true });
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(tmp, 'node_modules'), 'dir');
  for (const d of drifts) {
    const file = path.join(tmp, d.path);
    const text = fs.readFileSync(file, 'utf8');
    if (!text.includes(d.from)) throw new Error(`drift "${d.name}": ${d.path} no longer holds the text to change; update this script`);
    fs.writeFileSync(file, text.replace(d.from, d.to));
  }
  const check = spawnSync(process.execPath, [path.join(root, 'node_modules/svelte-check/bin/svelte-check'), '--workspace', tmp, '--tsconfig', path.join(tmp, 'tsconfig.json'), '--output', 'machine'], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  // Machine output: `<time> ERROR "<file>" <line>:<col> "<message>"`.
  const errors = [...check.stdout.matchAll(/^\d+ ERROR "([^"]+)" (\d+):\d+ "(.*)"$/gm)].map(([, file, line, message]) => ({ file, line: Number(line), message }));
  const lineOf = (e) => fs.readFileSync(path.join(tmp, e.file), 'utf8').split('\n')[e.line - 1] ?? '';
  const missed = drifts.filter((d) => !errors.some((e) => (d.file ? e.file === d.file && e.message.includes(d.field) : lineOf(e).includes(d.field))));
  if (check.status === 0 || missed.length) {
    console.error(`svelte-check (exit ${check.status}) let drifts through:\n  ${missed.map((d) => d.name).join('\n  ') || '(it passed)'}`);
    console.error(errors.map((e) => `  ${e.file}:${e.line}: ${e.message.slice(0, 200)}`).join('\n'));
    process.exit(1);
  }
  console.log(`svelte-check failed on each of ${drifts.length} drifts (${errors.length} errors), as it must:`);
  for (const d of drifts) console.log(`  ${d.name}`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

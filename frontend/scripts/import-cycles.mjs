// Fails when front-end modules import each other in a cycle (issue 39): every
// relative import, re-export, dynamic import and `declare module './x'`
// augmentation among the .ts, .svelte, .js and .mjs files under the given
// folders counts, type-only ones included. It first proves on probe cycles
// in a temp dir that it finds them (a check that cannot fail is a defect).
//
//   node scripts/import-cycles.mjs src e2e
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const EXTS = ['.ts', '.svelte', '.mjs', '.js'];
const SKIP = new Set(['node_modules', 'dist', 'test-results']);

/** Every module file under dir. */
function files(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP.has(e.name)) out.push(...files(p));
    } else if (EXTS.some((x) => e.name.endsWith(x))) out.push(p);
  }
  return out;
}

/** The module specifiers a file names: imports, re-exports, dynamic imports, augmentations. */
export function specifiers(src) {
  const code = src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found = [];
  const patterns = [
    /(?:^|[^\w$.])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\s+from\s+)?['"]([^'"]+)['"]/g,
    /(?:^|[^\w$.])import\(\s*['"]([^'"]+)['"]\s*\)/g,
    /(?:^|[^\w$.])declare\s+module\s+['"]([^'"]+)['"]/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) found.push(m[1]);
  return found;
}

/** The file a relative specifier names, or null (a package, or nothing there). */
function resolve(from, spec) {
  if (!spec.startsWith('./') && !spec.startsWith('../')) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const cand of [base, ...EXTS.map((x) => base + x), ...EXTS.map((x) => path.join(base, 'index' + x))]) {
    if (fs.existsSync(cand) && fs.statSync(cand).isFile()) return cand;
  }
  return null;
}

/** The import cycles among the modules under dirs: each a path of files and the modules it ties together. */
export function cycles(dirs) {
  const graph = new Map();
  for (const f of dirs.flatMap((d) => files(d))) {
    const deps = specifiers(fs.readFileSync(f, 'utf8'))
      .map((s) => resolve(f, s))
      .filter(Boolean);
    graph.set(f, [...new Set(deps)]);
  }
  // Tarjan's strongly connected components: a component of two or more
  // modules, or one importing itself, is a cycle.
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const found = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) !== idx.get(v)) return;
    const comp = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      comp.push(w);
    } while (w !== v);
    if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) found.push({ path: cyclePath(graph, new Set(comp)), modules: comp.sort() });
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

/** One cycle through a component, as a path that ends where it starts. */
function cyclePath(graph, comp) {
  const start = [...comp].sort()[0];
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (!comp.has(w)) continue;
      if (w === start) {
        const out = [start];
        for (let x = v; x !== null; x = prev.get(x)) out.unshift(x);
        return out;
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/** Probe cycles the check must find, and a chain it must not report. */
function selfTest() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cycles-'));
  try {
    const write = (name, text) => {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    };
    // An augmentation cycle, as types.ts → events.ts → review-api.ts → types.ts was.
    write('aug/types.ts', "import type { E } from './events';\nexport interface Api { e: E }\n");
    write('aug/events.ts', "import type { R } from './review-api';\nexport type E = R;\n");
    write('aug/review-api.ts', "export type R = string;\ndeclare module './types' {\n  interface Api { r: R }\n}\n");
    // Browser flows and their registry importing each other, over several lines.
    write('flows/flows.mjs', "import {\n  reviewFlows,\n} from './review.mjs';\nexport const nav = 1;\nexport const flows = { ...reviewFlows };\n");
    write('flows/review.mjs', "import { nav } from './flows.mjs';\nexport const reviewFlows = { nav };\n");
    // A component and a store, through a dynamic import.
    write('svelte/Screen.svelte', "<script lang=\"ts\">\n  import { Store } from './store.svelte';\n</script>\n");
    write('svelte/store.svelte.ts', "export class Store { open() { return import('./Screen.svelte'); } }\n");
    // No cycle: a chain, an import in a comment, a package.
    write('chain/a.ts', "// import { c } from './c';\nimport { b } from './b';\nimport x from 'svelte';\nexport const a = b + x;\n");
    write('chain/b.ts', "export { c as b } from './c';\n");
    write('chain/c.ts', "export const c = 1;\n");
    const got = cycles([dir]).map((c) => path.basename(path.dirname(c.path[0])));
    const want = ['aug', 'flows', 'svelte'];
    if (got.sort().join() !== want.join()) throw new Error(`self-test: found cycles in [${got}], want [${want}]`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const dirs = process.argv.slice(2);
if (!dirs.length) {
  console.error('usage: node scripts/import-cycles.mjs DIR...');
  process.exit(2);
}
selfTest();
const found = cycles(dirs.map((d) => path.resolve(d)));
if (found.length) {
  console.error(`${found.length} import cycle(s) among the front-end modules:`);
  const rel = (f) => path.relative(process.cwd(), f);
  for (const c of found) console.error(`  ${c.path.map(rel).join(' → ')}\n    (modules in the cycle: ${c.modules.map(rel).join(', ')})`);
  process.exit(1);
}
console.log(`no import cycle among the modules under ${dirs.join(', ')} (the probe cycles were found)`);

// The contract table (e2e/contract/table.mjs) against the real backend; the
// fake runs the same table in src/lib/backend/contract.test.ts.
import { assert } from '../harness.mjs';

export const contractFlows = {
  contract: {
    async run(page) {
      const { cases, normalize } = await import('../contract/table.mjs');
      const call = (method, ...args) =>
        page.evaluate(
          async ([m, a]) => {
            const [s, n] = m.split('.');
            try {
              const v = await window.go.app[s][n](...a);
              return { ok: v === undefined ? null : v };
            } catch (e) {
              return { err: typeof e === 'string' ? e : String(e?.message ?? e) };
            }
          },
          [method, args],
        );
      const bad = [];
      for (const c of cases) {
        const got = normalize(await c.run(call));
        const gotOk = got && 'ok' in got ? { ok: got.ok ?? undefined } : got;
        if (JSON.stringify(gotOk) !== JSON.stringify(c.expect)) bad.push(`${c.name}: got ${JSON.stringify(gotOk)}, want ${JSON.stringify(c.expect)}`);
      }
      assert(bad.length === 0, `the real backend differs from the contract table:\n  ${bad.join('\n  ')}`);
    },
  },
};

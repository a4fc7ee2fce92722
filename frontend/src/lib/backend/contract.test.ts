import { describe, expect, it } from 'vitest';
// The same table runs against the real Go backend in the `contract` browser flow.
// @ts-expect-error: a plain .mjs module shared with the browser harness
import { cases, normalize } from '../../../e2e/contract/table.mjs';
import { FakeBackend } from './fake';
import type { Api } from './api';

type Outcome = { ok: unknown } | { err: string };
interface Case {
  name: string;
  run(call: (method: keyof Api, ...args: unknown[]) => Promise<Outcome>): Promise<Outcome>;
  expect: Outcome;
}

describe('the fake backend follows the contract table (as the Go backend does)', () => {
  for (const c of cases as Case[]) {
    it(c.name, async () => {
      const fake = new FakeBackend({ seed: false });
      const call = (method: keyof Api, ...args: unknown[]): Promise<Outcome> =>
        (fake.invoke as (m: keyof Api, ...a: unknown[]) => Promise<unknown>)(method, ...args).then(
          (ok) => ({ ok: ok === undefined ? null : ok }),
          (err: unknown) => ({ err: String(err) }),
        );
      const got = normalize(await c.run(call)) as Outcome;
      const gotOk = 'ok' in got ? { ok: got.ok ?? undefined } : got;
      expect(JSON.parse(JSON.stringify(gotOk))).toEqual(c.expect);
    });
  }
});

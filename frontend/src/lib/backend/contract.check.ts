// Compile-time check (svelte-check, `make test`) that the hand-written Api
// (the *-api.ts slices composed in api.ts, over the shapes of types.ts)
// matches the bindings generated from the Go types: `go tool wails generate
// module` writes wailsjs/ (methods, arguments, results). A method, argument or
// field that drifts from Go fails the type check here; a union is checked
// member by member (a union keyed by kind against Go's member of that kind).
// The events need no check of their own: their names and payloads exist only
// in events.gen.ts (app/internal/genevents), and Backend.listen takes only a
// name Go emits and hands over its generated payload.
import type * as Commands from '../../../wailsjs/go/app/CommandService';
import type * as Diag from '../../../wailsjs/go/app/DiagService';
import type * as Forge from '../../../wailsjs/go/app/ForgeService';
import type * as MergeQueue from '../../../wailsjs/go/app/MergeQueueService';
import type * as Nav from '../../../wailsjs/go/app/NavService';
import type * as Review from '../../../wailsjs/go/app/ReviewService';
import type * as Run from '../../../wailsjs/go/app/RunService';
import type * as Schedules from '../../../wailsjs/go/app/ScheduleService';
import type * as Settings from '../../../wailsjs/go/app/SettingsService';
import type * as Setup from '../../../wailsjs/go/app/SetupService';
import type * as Tasks from '../../../wailsjs/go/app/TaskService';
import type * as Verify from '../../../wailsjs/go/app/VerifyService';
import type { Api } from './api';

type Prefixed<P extends string, M> = { [K in keyof M & string as `${P}.${K}`]: M[K] };
/** Every bound Go method, by "Service.Method". */
export type GeneratedApi = Prefixed<'TaskService', typeof Tasks> &
  Prefixed<'RunService', typeof Run> &
  Prefixed<'CommandService', typeof Commands> &
  Prefixed<'SettingsService', typeof Settings> &
  Prefixed<'ReviewService', typeof Review> &
  Prefixed<'DiagService', typeof Diag> &
  Prefixed<'NavService', typeof Nav> &
  Prefixed<'MergeQueueService', typeof MergeQueue> &
  Prefixed<'VerifyService', typeof Verify> &
  Prefixed<'ScheduleService', typeof Schedules> &
  Prefixed<'ForgeService', typeof Forge> &
  Prefixed<'SetupService', typeof Setup>;

/** The data of a generated model class (its methods dropped); Go times are `any` there. */
type Plain<T> = T extends readonly unknown[] ? { [I in keyof T]: Plain<T[I]> } : T extends object ? { [K in keyof T as T[K] extends (...a: never[]) => unknown ? never : K]: Plain<T[K]> } : T;

/**
 * never when what we declare (O) is a faithful subset of what Go has (G): every
 * field we declare exists in Go with a compatible type (our unions may narrow
 * Go's strings), recursively; with Opt, a field Go may omit is optional (or
 * nullable) in ours too. Otherwise the problems, named (shown in the error).
 * A union is checked member by member (its shared keys alone would let one
 * member's field drift unseen).
 */
type Compat<O, G, Opt extends boolean, Path extends string = ''> = O extends unknown ? CompatOne<O, Counterpart<O, G>, Opt, Path> : never;

/** The members of G that O stands for: the one of O's kind when both are unions keyed by kind. */
type Counterpart<O, G> = O extends { kind: infer K } ? ([Extract<G, { kind: K }>] extends [never] ? G : Extract<G, { kind: K }>) : G;

type CompatOne<O, G, Opt extends boolean, Path extends string> = [O] extends [readonly unknown[]]
  ? [G] extends [readonly unknown[]]
    ? number extends O['length']
      ? Compat<O[number], G[number], Opt, `${Path}[]`>
      : { [I in keyof O & `${number}`]: I extends keyof G ? Compat<O[I], G[I], Opt, `${Path}(${I})`> : { path: `${Path}(${I})`; problem: 'Go takes fewer arguments' } }[keyof O & `${number}`]
    : { path: Path; problem: 'not an array in Go' }
  : [O] extends [object]
    ? [G] extends [object]
      ? {
          [K in keyof O & string]-?: K extends keyof G
            ? 0 extends 1 & G[K] // Go's time.Time is \`any\` in the models: any type is fine
              ? never
              : Opt extends true
              ? undefined extends G[K]
                ? undefined extends O[K]
                  ? Compat<NonNullable<O[K]>, NonNullable<G[K]>, Opt, `${Path}.${K}`>
                  : null extends O[K]
                    ? Compat<NonNullable<O[K]>, NonNullable<G[K]>, Opt, `${Path}.${K}`>
                    : { path: `${Path}.${K}`; problem: 'Go may omit it: make it optional' }
                : Compat<NonNullable<O[K]>, NonNullable<G[K]>, Opt, `${Path}.${K}`>
              : Compat<NonNullable<O[K]>, NonNullable<G[K]>, Opt, `${Path}.${K}`>
            : { path: `${Path}.${K}`; problem: 'Go has no such field' };
        }[keyof O & string]
      : { path: Path; problem: 'not an object in Go' }
    : [O] extends [G]
      ? never
      : { path: Path; problem: 'incompatible type'; ours: O; go: G };
type Ok<C> = [C] extends [never] ? true : C;

type Unwrap<T> = T extends Promise<infer R> ? R : T;
type MethodCheck<K extends keyof Api & keyof GeneratedApi> =
  // What we send is what Go takes (positional arguments); what we read is what Go returns.
  Ok<Compat<Parameters<Api[K]>, Plain<Parameters<GeneratedApi[K]>>, false> | Compat<Unwrap<ReturnType<Api[K]>>, Plain<Unwrap<ReturnType<GeneratedApi[K]>>>, true>>;

/**
 * Exported Go methods of bound services that only Go calls (Wails binds every
 * exported method): none — bound structs export only what the front end calls.
 */
type GoOnly = never;

/** Methods of one side only: must both be empty. */
export const missingInGo: [Exclude<keyof Api, keyof GeneratedApi>] extends [never] ? true : Exclude<keyof Api, keyof GeneratedApi> = true;
export const missingInApi: [Exclude<keyof GeneratedApi, keyof Api | GoOnly>] extends [never] ? true : Exclude<keyof GeneratedApi, keyof Api | GoOnly> = true;
export const methods: { [K in keyof Api & keyof GeneratedApi]: MethodCheck<K> } = {} as { [K in keyof Api & keyof GeneratedApi]: true };

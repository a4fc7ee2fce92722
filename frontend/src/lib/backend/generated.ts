// Shapes taken from the generated models (wailsjs/go/models.ts), for the
// slices whose types are Go's own rather than hand-written.

/** The data of a generated model class (its methods dropped). */
export type Data<T> = T extends readonly unknown[] ? { [I in keyof T]: Data<T[I]> } : T extends object ? { [K in keyof T as T[K] extends (...a: never[]) => unknown ? never : K]: Data<T[K]> } : T;

// Counted words for every count the screens show: "1 file", "2 files",
// "1,234 files" (grouped as the user's locale groups numbers), so no screen
// says "1 files" or writes its own `n === 1 ? … : …`.

/** Plurals that are not the singular plus "s". */
const IRREGULAR: Record<string, string> = {
  branch: 'branches',
  child: 'children',
  entry: 'entries',
  match: 'matches',
  process: 'processes',
  is: 'are',
  was: 'were',
  has: 'have',
  this: 'these',
  it: 'they',
};

/** The word for n of them: plural('file', 1) is "file", plural('file', 2) "files"; `many` overrides the plural. */
export function plural(one: string, n: number, many?: string): string {
  if (n === 1) return one;
  return many ?? IRREGULAR[one] ?? `${one}s`;
}

/** n and its word: count(1, 'file') is "1 file", count(1234, 'file') "1,234 files", count(0, 'file') "0 files". */
export function count(n: number, one: string, many?: string): string {
  return `${n.toLocaleString()} ${plural(one, n, many)}`;
}

/** n and its word, or `none` when n is 0: count(0, 'comment') can read "no comments". */
export function countOr(n: number, one: string, none: string, many?: string): string {
  return n === 0 ? none : count(n, one, many);
}

/** A list for a sentence: "a", "a and b", "a, b and c". */
export function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The counts that are not 0, as a sentence does: counts([1, 'comment'], [0, 'drop'], [2, 'file']) is "1 comment and 2 files"; "" when all are 0. */
export function counts(...parts: [n: number, one: string, many?: string][]): string {
  return listOf(parts.filter(([n]) => n !== 0).map(([n, one, many]) => count(n, one, many)));
}

/** s with its first letter in capitals, as a sentence or a heading starts: "merge request !3" → "Merge request !3". */
export function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

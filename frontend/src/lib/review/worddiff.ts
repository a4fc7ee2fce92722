// Word-level changes inside modified lines: a removed line paired with the
// added line that replaces it, compared token by token (words, runs of
// spaces, single punctuation marks), so the view can mark what changed.

/** A changed stretch of a line: [from, to) in characters. */
export type Range = [number, number];

const TOKEN = /\w+|\s+|[^\w\s]/g;
/** Lines with more tokens than this are not compared (the table is n×m). */
const MAX_TOKENS = 400;

function tokens(s: string): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  for (const m of s.matchAll(TOKEN)) out.push({ text: m[0], at: m.index! });
  return out;
}

/**
 * The changed ranges of an old and a new line: tokens outside their longest
 * common subsequence, adjacent ones merged. Both are empty when the lines
 * share no word (a rewrite: marking all of it says nothing) or are too long.
 */
export function wordDiff(a: string, b: string): { old: Range[]; new: Range[] } {
  const none = { old: [], new: [] };
  if (a === b) return none;
  const ta = tokens(a);
  const tb = tokens(b);
  if (ta.length > MAX_TOKENS || tb.length > MAX_TOKENS) return none;
  const n = ta.length;
  const m = tb.length;
  // lcs[i][j]: the common subsequence of ta[i:] and tb[j:], as a flat table.
  const lcs = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * (m + 1) + j] = ta[i].text === tb[j].text ? lcs[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
  const keepA = new Array<boolean>(n).fill(false);
  const keepB = new Array<boolean>(m).fill(false);
  let shared = false;
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (ta[i].text === tb[j].text) {
      keepA[i++] = keepB[j++] = true;
      shared ||= /\w/.test(ta[i - 1].text);
    } else if (lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1]) i++;
    else j++;
  }
  if (!shared) return none;
  return { old: ranges(ta, keepA), new: ranges(tb, keepB) };
}

function ranges(ts: { text: string; at: number }[], keep: boolean[]): Range[] {
  const out: Range[] = [];
  ts.forEach((t, i) => {
    if (keep[i]) return;
    const last = out[out.length - 1];
    if (last && last[1] === t.at) last[1] = t.at + t.text.length;
    else out.push([t.at, t.at + t.text.length]);
  });
  return out;
}

/**
 * Wraps the characters of ranges in <mark> inside already escaped (and
 * possibly highlighted) HTML: positions count text characters, an entity
 * being one; a mark is closed before each tag and reopened after it, so the
 * result nests.
 */
export function markRanges(html: string, rs: Range[]): string {
  if (!rs.length) return html;
  let out = '';
  let pos = 0;
  let r = 0;
  let open = false;
  for (let i = 0; i < html.length; ) {
    if (html[i] === '<') {
      const end = html.indexOf('>', i) + 1 || html.length;
      if (open) out += '</mark>';
      open = false;
      out += html.slice(i, end);
      i = end;
      continue;
    }
    const end = html[i] === '&' ? html.indexOf(';', i) + 1 || i + 1 : i + 1;
    while (r < rs.length && pos >= rs[r][1]) r++;
    const want = r < rs.length && pos >= rs[r][0];
    if (want !== open) out += want ? '<mark>' : '</mark>';
    open = want;
    out += html.slice(i, end);
    i = end;
    pos++;
  }
  return open ? out + '</mark>' : out;
}

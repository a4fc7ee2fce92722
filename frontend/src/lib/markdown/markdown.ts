// A small markdown reader for what agents write (reports, plans, feed
// messages): headings, paragraphs, lists with task boxes, fenced code,
// block quotes, rules, tables; code spans, bold, italics and links inline.
// It gives data, never HTML: the component renders every piece as text, so
// agent output (untrusted) cannot inject markup, scripts or live links.

/** Inline content: text, a code span, bold, italics or a link (shown as text). */
export type Inline =
  | { t: 'text'; v: string }
  | { t: 'code'; v: string }
  | { t: 'strong'; c: Inline[] }
  | { t: 'em'; c: Inline[] }
  | { t: 'link'; c: Inline[]; href: string };

/** A list item; check is true/false for a task item ("- [x]", "- [ ]"), undefined otherwise. */
export interface Item {
  check?: boolean;
  c: Block[];
}

export type Align = 'left' | 'center' | 'right' | null;

/** Block content. */
export type Block =
  | { t: 'h'; level: number; c: Inline[] }
  | { t: 'p'; c: Inline[] }
  | { t: 'code'; lang: string; v: string }
  | { t: 'hr' }
  | { t: 'quote'; c: Block[] }
  | { t: 'list'; ordered: boolean; start: number; items: Item[] }
  | { t: 'table'; align: Align[]; head: Inline[][]; rows: Inline[][][] };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>/;
const ITEM = /^( {0,12})([-*+]|\d{1,9}[.)])(?:\s+(.*))?$/;
const TABLE_SEP = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
/** Nesting deeper than this is read as text: a bounded recursion on any input. */
const MAX_DEPTH = 12;

/** Whether line i starts a block other than a paragraph (which it then ends). */
function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line);
}

/** Parses markdown into blocks. */
export function parse(source: string): Block[] {
  return blocks(source.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n'), 0);
}

function blocks(lines: string[], depth: number): Block[] {
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    let m: RegExpExecArray | null;
    if (!line.trim()) {
      i++;
    } else if ((m = FENCE.exec(line))) {
      const fence = m[1];
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].trimStart().startsWith(fence); i++) body.push(lines[i]);
      i++;
      out.push({ t: 'code', lang: m[2].toLowerCase(), v: body.join('\n') });
    } else if ((m = HEADING.exec(line))) {
      out.push({ t: 'h', level: m[1].length, c: inline(m[2] ?? '', depth) });
      i++;
    } else if (RULE.test(line)) {
      out.push({ t: 'hr' });
      i++;
    } else if (QUOTE.test(line) && depth < MAX_DEPTH) {
      const body: string[] = [];
      for (; i < lines.length && QUOTE.test(lines[i]); i++) body.push(lines[i].replace(/^ {0,3}> ?/, ''));
      out.push({ t: 'quote', c: blocks(body, depth + 1) });
    } else if (ITEM.test(line) && depth < MAX_DEPTH) {
      i = list(lines, i, depth, out);
    } else if (line.includes('|') && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1]) && lines[i + 1].includes('-')) {
      i = table(lines, i, depth, out);
    } else {
      const body = [line.trim()];
      for (i++; i < lines.length && lines[i].trim() && !startsBlock(lines[i]); i++) body.push(lines[i].trim());
      out.push({ t: 'p', c: inline(body.join('\n'), depth) });
    }
  }
  return out;
}

/** Reads the list starting at line i into out; returns the line after it. */
function list(lines: string[], i: number, depth: number, out: Block[]): number {
  const first = ITEM.exec(lines[i])!;
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const items: { lines: string[]; check?: boolean }[] = [];
  let offset = 0;
  for (; i < lines.length; i++) {
    const line = lines[i];
    const m = ITEM.exec(line);
    if (m && m[1].length === indent && /\d/.test(m[2]) === ordered) {
      let text = m[3] ?? '';
      let check: boolean | undefined;
      const box = /^\[([ xX])\]\s+/.exec(text);
      if (box) {
        check = box[1] !== ' ';
        text = text.slice(box[0].length);
      }
      offset = indent + m[2].length + 1;
      items.push({ lines: [text], check });
      continue;
    }
    const cur = items[items.length - 1];
    const lead = line.length - line.trimStart().length;
    if (!line.trim()) {
      // A blank line continues the list only when more of it follows.
      let j = i + 1;
      while (j < lines.length && !lines[j].trim()) j++;
      const next = lines[j] ?? '';
      const nm = ITEM.exec(next);
      const more = next.length - next.trimStart().length > indent || (nm && nm[1].length === indent && /\d/.test(nm[2]) === ordered);
      if (!more) break;
      cur.lines.push('');
    } else if (lead > indent) {
      cur.lines.push(line.slice(Math.min(lead, offset)));
    } else if (cur.lines[cur.lines.length - 1].trim() && !startsBlock(line)) {
      cur.lines.push(line.trim()); // a lazy continuation of the item's paragraph
    } else {
      break;
    }
  }
  const start = ordered ? parseInt(first[2], 10) : 1;
  out.push({ t: 'list', ordered, start, items: items.map((it) => ({ check: it.check, c: blocks(it.lines, depth + 1) })) });
  return i;
}

/** The cells of a table row ("| a | b |"), a `\|` kept in its cell. */
function cells(line: string): string[] {
  const s = line.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  return s.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** Reads the table starting at line i into out; returns the line after it. */
function table(lines: string[], i: number, depth: number, out: Block[]): number {
  const head = cells(lines[i]);
  const align: Align[] = cells(lines[i + 1]).map((c) => (c.startsWith(':') && c.endsWith(':') ? 'center' : c.endsWith(':') ? 'right' : c.startsWith(':') ? 'left' : null));
  const rows: Inline[][][] = [];
  for (i += 2; i < lines.length && lines[i].trim() && lines[i].includes('|'); i++) {
    const r = cells(lines[i]);
    rows.push(head.map((_, k) => inline(r[k] ?? '', depth)));
  }
  out.push({ t: 'table', align: head.map((_, k) => align[k] ?? null), head: head.map((h) => inline(h, depth)), rows });
  return i;
}

const ESCAPABLE = /[\\`*_[\]()#+\-.!|<>~{}]/;

/** Parses inline markdown. */
export function inline(s: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const push = (x: Inline) => {
    if (text) out.push({ t: 'text', v: text });
    text = '';
    out.push(x);
  };
  const deeper = depth < MAX_DEPTH;
  let i = 0;
  while (i < s.length) {
    const ch = s[i];
    const rest = s.slice(i);
    let m: RegExpExecArray | null;
    if (ch === '\\' && i + 1 < s.length && ESCAPABLE.test(s[i + 1])) {
      text += s[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`' && (m = /^(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/.exec(rest))) {
      const v = m[2];
      push({ t: 'code', v: /^ .* $/.test(v) ? v.slice(1, -1) : v });
      i += m[0].length;
      continue;
    }
    if ((ch === '*' || ch === '_') && deeper && !(ch === '_' && /\w/.test(s[i - 1] ?? ''))) {
      const strong = s.startsWith(ch + ch, i);
      const open = strong ? 2 : 1;
      const end = closing(s, i + open, ch, strong);
      if (end > i + open && !/\s/.test(s[i + open])) {
        const c = inline(s.slice(i + open, end), depth + 1);
        push(strong ? { t: 'strong', c } : { t: 'em', c });
        i = end + open;
        continue;
      }
    }
    if (ch === '[' && deeper && (m = /^\[((?:[^\]\\]|\\.)*)\]\(\s*<?((?:[^()\s<>]|\([^()\s<>]*\))*)>?(?:\s+"[^"]*")?\s*\)/.exec(rest))) {
      push({ t: 'link', c: inline(m[1], depth + 1), href: m[2] });
      i += m[0].length;
      continue;
    }
    if (ch === '<' && (m = /^<((?:https?|mailto):[^\s<>]+)>/.exec(rest))) {
      push({ t: 'link', c: [{ t: 'text', v: m[1] }], href: m[1] });
      i += m[0].length;
      continue;
    }
    text += ch;
    i++;
  }
  if (text) out.push({ t: 'text', v: text });
  return out;
}

/** Where the emphasis opened before `from` closes (its delimiter's index), or -1. */
function closing(s: string, from: number, ch: string, strong: boolean): number {
  const d = strong ? ch + ch : ch;
  for (let j = s.indexOf(d, from); j !== -1; j = s.indexOf(d, j + 1)) {
    if (/\s/.test(s[j - 1])) continue;
    if (!strong && s[j + 1] === ch) {
      j++; // "**" inside italics belongs to a bold run
      continue;
    }
    if (ch === '_' && /\w/.test(s[j + d.length] ?? '')) continue;
    return j;
  }
  return -1;
}

/** The plain text of inline content (for labels and titles). */
export function plain(c: Inline[]): string {
  return c.map((x) => (x.t === 'text' || x.t === 'code' ? x.v : plain(x.c))).join('');
}

/** Whether a link's target may be shown as an address: web and mail only, never javascript: or data:. */
export function shownHref(href: string): string {
  return /^(https?:|mailto:)/i.test(href) ? href : '';
}

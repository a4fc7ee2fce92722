import { describe, expect, it } from 'vitest';
import { anchorLabel, buildChangeRequest } from './hunks';
import { markRanges, wordDiff } from './worddiff';
import { treeOrder, treeRows } from './filetree';
import { diffRows, hunkSpan, sideRows } from './diffrows';
import { fromDraft, toDraft } from './draft';
import type { DiffFile } from '../backend/types';

describe('wordDiff', () => {
  it('marks the changed words of a paired line', () => {
    const w = wordDiff('return fmt.Errorf("load %s", name)', 'return fmt.Errorf("read %s: %w", name, err)');
    const cut = (s: string, rs: [number, number][]) => rs.map(([a, b]) => s.slice(a, b));
    expect(cut('return fmt.Errorf("load %s", name)', w.old)).toEqual(['load']);
    expect(cut('return fmt.Errorf("read %s: %w", name, err)', w.new)).toEqual(['read', ': %w', ', err']);
  });
  it('marks nothing for a rewrite that shares no word, or equal lines', () => {
    expect(wordDiff('alpha beta', 'gamma delta')).toEqual({ old: [], new: [] });
    expect(wordDiff('same', 'same')).toEqual({ old: [], new: [] });
  });
});

describe('markRanges', () => {
  it('wraps characters in marks, counting an entity as one and closing around tags', () => {
    expect(markRanges('a &lt; b', [[2, 3]])).toBe('a <mark>&lt;</mark> b');
    expect(markRanges('<span class="k">var</span> b', [[1, 5]])).toBe('<span class="k">v<mark>ar</mark></span><mark> b</mark>');
    expect(markRanges('abc', [])).toBe('abc');
  });
});

describe('treeRows', () => {
  const f = (path: string): DiffFile => ({ path, change: 'modified', additions: 1, deletions: 0, binary: false });
  const files = [f('README.md'), f('src/lib/a.ts'), f('src/lib/b.ts'), f('src/main.ts'), f('docs/x/y/z.md')];
  it('builds folders first, single-folder chains in one row, files by name', () => {
    expect(treeRows(files).map((r) => `${'  '.repeat(r.depth)}${r.kind === 'dir' ? `${r.name}/` : r.name}`)).toEqual([
      'docs/x/y/',
      '  z.md',
      'src/',
      '  lib/',
      '    a.ts',
      '    b.ts',
      '  main.ts',
      'README.md',
    ]);
  });
  it('leaves out what a collapsed folder holds, and walks files in the shown order', () => {
    expect(treeRows(files, new Set(['src/lib'])).map((r) => r.path)).toEqual(['docs/x/y', 'docs/x/y/z.md', 'src', 'src/lib', 'src/main.ts', 'README.md']);
    expect(treeOrder(files).map((x) => x.path)).toEqual(['docs/x/y/z.md', 'src/lib/a.ts', 'src/lib/b.ts', 'src/main.ts', 'README.md']);
  });
});

describe('diffRows', () => {
  const h = (index: number, os: number, ol: number, ns: number, nl: number) => ({ index, header: `@@ -${os},${ol} +${ns},${nl} @@`, section: '', old_start: os, old_lines: ol, new_start: ns, new_lines: nl, count: 0, first_line: 0, lines: [] });
  it('numbers the gap between hunks in both versions, also after pure insertions', () => {
    expect(hunkSpan(h(1, 5, 0, 6, 2))).toEqual({ oldFrom: 6, oldEnd: 6, newFrom: 6, newEnd: 8 });
    const hunks = [h(1, 3, 2, 3, 4), h(2, 10, 1, 12, 1)];
    const rows = diffRows(hunks, [[], []], new Map(), []);
    expect(rows.map((r) => r.kind)).toEqual(['gap', 'hunk', 'gap', 'hunk']);
    expect(rows[0]).toMatchObject({ oldFrom: 1, newFrom: 1, count: 2 });
    expect(rows[2]).toMatchObject({ oldFrom: 5, newFrom: 7, count: 5 });
    const open = diffRows(hunks, [[], []], new Map([[1, ['p', 'q', 'r', 's', 't']]]), []);
    expect(open.filter((r) => r.kind === 'line').map((r) => (r.kind === 'line' ? [r.old, r.new, r.text] : []))).toEqual([
      [5, 7, 'p'],
      [6, 8, 'q'],
      [7, 9, 'r'],
      [8, 10, 's'],
      [9, 11, 't'],
    ]);
  });
  it('keeps a thread whose line is not shown at the end, and pairs runs side by side', () => {
    const lines = [
      [
        { kind: 'del', old: 1, new: 0, text: 'x' },
        { kind: 'add', old: 0, new: 1, text: 'y' },
        { kind: 'add', old: 0, new: 2, text: 'z' },
      ],
    ];
    const rows = diffRows([h(1, 1, 1, 1, 2)], lines, new Map(), [{ id: 7, index: 1, side: 'new', line: 99 }]);
    expect(rows.at(-1)).toMatchObject({ kind: 'thread', ids: [7] });
    const side = sideRows(rows);
    expect(side.filter((r) => r.kind === 'pair').map((r) => (r.kind === 'pair' ? [r.left?.old ?? 0, r.right?.new ?? 0] : []))).toEqual([
      [1, 1],
      [0, 2],
    ]);
  });
});

describe('the request and the draft', () => {
  const c = { id: 1, file: 'b.go', index: 2, header: '@@ -9 +9 @@', side: 'old' as const, line: 9, text: ' why ' };
  it('labels anchors and sends only comments with text', () => {
    expect(anchorLabel(c)).toBe('b.go old 9');
    expect(anchorLabel({ ...c, side: 'new', end_line: 12 })).toBe('b.go:9-12');
    expect(anchorLabel({ ...c, line: 0 })).toBe('b.go hunk 2');
    expect(buildChangeRequest(' g ', [c, { ...c, id: 2, text: ' ' }], [])).toEqual({ general: 'g', comments: [{ file: 'b.go', line: 9, side: 'old', hunk: '', text: 'why', index: 2, header: '@@ -9 +9 @@' }], drops: [] });
  });
  it('round-trips the unsent work through the stored draft', () => {
    const state = { head: 'feedc0de', general: 'g', comments: [c, { ...c, id: 2, side: 'new' as const, line: 3, end_line: 5, text: '' }], drops: [{ file: 'a.go', index: 1, header: '@@ -1 +1 @@' }], picks: { 'a.go': true as const, 'b.go': [2, 1] }, viewed: { 'a.go': 'h1' } };
    const stored = JSON.parse(JSON.stringify(toDraft(state)));
    expect(stored.chosen).toEqual([{ file: 'a.go' }, { file: 'b.go', hunks: [1, 2] }]);
    expect('updated_at' in stored).toBe(false); // Go sets it; "" would not parse as a time
    let id = 0;
    const back = fromDraft({ ...stored, updated_at: '2026-12-05T00:00:00Z' }, () => ++id);
    expect(back).toEqual({ ...state, picks: { 'a.go': true, 'b.go': [1, 2] }, moved: false, unviewed: [] });
  });
});

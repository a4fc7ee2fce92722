import { describe, expect, it } from 'vitest';
import { buildChangeRequest, parseHunks, patchLines, sideBySide, type HunkChoice } from './hunks';

const PATCH = [
  'diff --git a/x.go b/x.go',
  '--- a/x.go',
  '+++ b/x.go',
  '@@ -1,3 +1,3 @@ package x',
  ' a',
  '--- a removed line that looks like a header',
  '+++ an added line that looks like a header',
  '@@ -10 +10,2 @@',
  ' b',
  '+c',
  '\\ No newline at end of file',
].join('\n');

describe('patchLines', () => {
  it('types each line, headers only before the first hunk', () => {
    expect(patchLines(PATCH + '\n').map((l) => l.kind)).toEqual(['meta', 'meta', 'meta', 'hunk', 'ctx', 'del', 'add', 'hunk', 'ctx', 'add', 'meta']);
    expect(patchLines(PATCH).map((l) => l.hunk)).toEqual([-1, -1, -1, 0, 0, 0, 0, 1, 1, 1, 1]);
  });
});

describe('parseHunks', () => {
  it('finds each hunk with its line range, first new line and text', () => {
    const hs = parseHunks(patchLines(PATCH));
    expect(hs.map((h) => [h.start, h.end, h.newStart])).toEqual([
      [3, 7, 1],
      [7, 11, 10],
    ]);
    expect(hs[0].text).toBe('@@ -1,3 +1,3 @@ package x\n a\n--- a removed line that looks like a header\n+++ an added line that looks like a header\n');
    expect(hs[1].text.endsWith('+c\n\\ No newline at end of file\n')).toBe(true);
  });

  it('finds none in a patch without hunks', () => {
    expect(parseHunks(patchLines('Binary files a/x and b/x differ\n'))).toEqual([]);
    expect(parseHunks(patchLines(''))).toEqual([]);
  });
});

describe('buildChangeRequest', () => {
  const c = (file: string, hunk: number, comment: string, drop: boolean): HunkChoice => ({ file, hunk, line: hunk * 10 + 1, text: `@@ h${hunk}\n`, comment, drop });

  it('orders by file and hunk, trims, leaves out blank comments and keeps drops', () => {
    const req = buildChangeRequest('  general  ', [c('b.go', 1, 'later', false), c('a.go', 2, '   ', true), c('a.go', 0, ' first ', true)]);
    expect(req).toEqual({
      general: 'general',
      comments: [
        { file: 'a.go', line: 1, hunk: '@@ h0\n', text: 'first' },
        { file: 'b.go', line: 11, hunk: '@@ h1\n', text: 'later' },
      ],
      drops: [
        { file: 'a.go', hunk: '@@ h0\n' },
        { file: 'a.go', hunk: '@@ h2\n' },
      ],
    });
  });

  it('is empty when nothing was chosen', () => {
    expect(buildChangeRequest(' ', [])).toEqual({ general: '', comments: [], drops: [] });
  });
});

describe('sideBySide', () => {
  it('pairs removed and added runs and keeps context on both sides', () => {
    const rows = sideBySide(patchLines('--- a/x\n+++ b/x\n@@ -1,4 +1,4 @@\n keep\n-old1\n-old2\n+new1\n same\n+extra\n'));
    expect(rows.map((r) => r.kind)).toEqual(['meta', 'meta', 'hunk', 'pair', 'pair', 'pair', 'pair', 'pair']);
    expect(rows[3]).toMatchObject({ left: { kind: 'ctx', text: 'keep' }, right: { kind: 'ctx', text: 'keep' } });
    expect(rows[4]).toMatchObject({ left: { kind: 'del', text: 'old1' }, right: { kind: 'add', text: 'new1' } });
    expect(rows[5].left).toEqual({ kind: 'del', text: 'old2' });
    expect(rows[5].right).toBeUndefined();
    expect(rows[7].left).toBeUndefined();
    expect(rows[7].right).toEqual({ kind: 'add', text: 'extra' });
  });
});

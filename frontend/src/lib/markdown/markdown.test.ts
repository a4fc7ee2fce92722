import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/svelte';
import { inline, parse, plain, shownHref } from './markdown';
import Markdown from './Markdown.svelte';

describe('parse', () => {
  it('reads headings, lists with task boxes, fenced code and tables', () => {
    const doc = parse('## Review\n\nLooks **good**.\n\n- [x] tests\n- [ ] docs\n  more docs\n\n```go\nfunc f() {}\n```\n\n| a | b |\n|:--|--:|\n| 1 | `2` |\n');
    expect(doc.map((b) => b.t)).toEqual(['h', 'p', 'list', 'code', 'table']);
    const list = doc[2];
    if (list.t !== 'list') throw new Error('no list');
    expect(list.items.map((i) => i.check)).toEqual([true, false]);
    expect(list.items[1].c).toEqual([{ t: 'p', c: [{ t: 'text', v: 'docs\nmore docs' }] }]);
    expect(doc[3]).toEqual({ t: 'code', lang: 'go', v: 'func f() {}' });
    const table = doc[4];
    if (table.t !== 'table') throw new Error('no table');
    expect(table.align).toEqual(['left', 'right']);
    expect(table.rows[0][1]).toEqual([{ t: 'code', v: '2' }]);
  });

  it('nests lists and numbers ordered ones from their start', () => {
    const doc = parse('3. first\n   - inner\n4. second\n');
    expect(doc).toHaveLength(1);
    const l = doc[0];
    if (l.t !== 'list') throw new Error('no list');
    expect([l.ordered, l.start, l.items.length]).toEqual([true, 3, 2]);
    expect(l.items[0].c.map((b) => b.t)).toEqual(['p', 'list']);
  });

  it('keeps snake_case words and unclosed markers as text', () => {
    expect(plain(inline('call read_file_fast and 2 * 3 * 4'))).toBe('call read_file_fast and 2 * 3 * 4');
    expect(inline('a *b* c')).toEqual([{ t: 'text', v: 'a ' }, { t: 'em', c: [{ t: 'text', v: 'b' }] }, { t: 'text', v: ' c' }]);
  });

  it('is bounded on deep nesting', () => {
    const deep = '>'.repeat(5000) + ' x\n' + '['.repeat(5000) + '*'.repeat(5000);
    expect(() => parse(deep)).not.toThrow();
  });
});

describe('Markdown', () => {
  it('renders untrusted markup as text: no element, script or live link from the source', () => {
    const src = '<img src=x onerror="alert(1)"> <script>alert(2)</script>\n\n[click](javascript:alert(3)) [site](https://example.com)\n\n```html\n<b onclick="x()">hi</b>\n```';
    const { container } = render(Markdown, { source: src });
    expect(container.querySelector('img, script, a, b, [onclick], [onerror]')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(container.textContent).toContain('<b onclick="x()">hi</b>');
    expect(container.textContent).not.toContain('javascript:');
    expect(container.textContent).toContain('(https://example.com)');
    expect(shownHref('JavaScript:alert(1)')).toBe('');
  });

  it('renders headings under the given level, code highlighted, and the plan as a checklist', () => {
    const { container } = render(Markdown, { source: '# Plan\n\n1. Add the test\n2. [x] Fix it\n\n```go\nfunc main() {}\n```', level: 4, checklist: true });
    expect(container.querySelector('h4')?.textContent).toBe('Plan');
    const boxes = [...container.querySelectorAll<HTMLInputElement>('li input[type=checkbox]')];
    expect(boxes.map((b) => b.checked)).toEqual([false, true]);
    expect(container.querySelector('pre.code .hljs-keyword')?.textContent).toBe('func');
  });
});

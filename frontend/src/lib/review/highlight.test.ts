import { describe, expect, it } from 'vitest';
import { highlightLine, languageOf } from './highlight';

describe('highlight', () => {
  it('finds the language from the extension', () => {
    expect(languageOf('pkg/a/file.go')).toBe('go');
    expect(languageOf('src/App.svelte')).toBe('xml');
    expect(languageOf('Makefile')).toBe('');
    expect(languageOf('notes.unknown')).toBe('');
  });

  it('colours known languages and always escapes', () => {
    const go = highlightLine('func main() { return "x" }', 'go');
    expect(go).toContain('<span class="hljs-keyword">func</span>');
    expect(highlightLine('<script>alert(1)</script>', '')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(highlightLine('a < b && "<i>"', 'go')).not.toContain('<i>');
  });
});

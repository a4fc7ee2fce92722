import { describe, expect, it } from 'vitest';
import hljs from 'highlight.js/lib/core';
import { highlightLine, languageOf } from './highlight';

describe('highlight', () => {
  // First: it looks at what loading the module did. The window's entry script
  // holds this module, so loading it must not build the languages' modes.
  it('registers the languages at the first line coloured, not at load', () => {
    expect(hljs.listLanguages()).toEqual([]);
    expect(highlightLine('x := 1', 'go')).toContain('hljs-');
    expect(hljs.listLanguages()).toContain('typescript');
  });

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

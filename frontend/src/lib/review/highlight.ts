// Syntax colouring of patch lines with highlight.js (core plus the languages
// coding agents touch most; each line is coloured on its own, which keeps the
// virtualized patch cheap at the cost of multi-line constructs).
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const languages = { bash, css, go, java, javascript, json, markdown, python, rust, sql, typescript, xml, yaml };
let registered = false;

// Registering builds each language's modes: 10-20 ms that the window's first
// paint paid when it ran at load (the entry script holds the Review screen),
// so it waits for the first line coloured. All at once, as a language may
// embed another (xml holds css and javascript).
function register(): void {
  if (registered) return;
  registered = true;
  for (const [name, lang] of Object.entries(languages)) hljs.registerLanguage(name, lang);
}

const byExtension: Record<string, string> = {
  sh: 'bash', bash: 'bash', css: 'css', scss: 'css', go: 'go', java: 'java', js: 'javascript', mjs: 'javascript',
  cjs: 'javascript', jsx: 'javascript', json: 'json', md: 'markdown', py: 'python', rs: 'rust', sql: 'sql',
  ts: 'typescript', tsx: 'typescript', html: 'xml', xml: 'xml', svelte: 'xml', vue: 'xml', yml: 'yaml', yaml: 'yaml',
};

/** The highlight.js language for a path, or '' when none fits. */
export function languageOf(path: string): string {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return path.includes('.') ? (byExtension[ext] ?? '') : '';
}

/** Escapes text for HTML. */
export function escapeHTML(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** HTML of one line of code, coloured when the language is known; always escaped. */
export function highlightLine(code: string, language: string): string {
  if (!language || code.length > 2000) return escapeHTML(code);
  register();
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return escapeHTML(code);
  }
}

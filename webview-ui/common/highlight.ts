/**
 * Syntax highlighting for the model's code blocks: highlight.js's core with a handful of languages
 * registered (the bundle carries only these), run on a fence that names its language; a block without
 * one, or in a language not listed, is shown plain (guessing is slow and often wrong). Its output is
 * escaped text in `<span class="hljs-…">`; the colours come from the theme in highlight.css.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
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

const LANGUAGES = { bash, css, diff, go, java, javascript, json, markdown, python, rust, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** Longer blocks are shown plain: highlighting them would hold up the panel for what nobody reads closely. */
export const HIGHLIGHT_MAX_CHARS = 100_000;

/** The HTML of `code` highlighted as `language`, or undefined when the language is not one registered. */
export function highlightCode(code: string, language: string): string | undefined {
  if (code.length > HIGHLIGHT_MAX_CHARS || !hljs.getLanguage(language)) return undefined;
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}

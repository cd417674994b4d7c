/**
 * The webview loads one stylesheet, bundled from `webview.css` (issue 34, item 15). A component's CSS that the
 * entry does not import would be missing from the page without an error anywhere, so: every CSS file under
 * webview-ui/ is imported by the entry, once, and each one's rules are in the bundle esbuild makes of it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';

const UI = __dirname;
const ENTRY = join(UI, 'webview.css');

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(path);
    return entry.name.endsWith('.css') ? [relative(UI, path)] : [];
  });
}

function entryImports(): string[] {
  return [...readFileSync(ENTRY, 'utf8').matchAll(/@import\s+"\.\/([^"]+)"\s*;/g)].map((m) => m[1]!);
}

/** The first selector of a file's first rule (esbuild prints a list one selector a line: `a,\nb {`). */
function firstSelector(file: string): string {
  const css = readFileSync(join(UI, file), 'utf8').replace(/\/\*[^]*?\*\//g, '');
  const selector = /([^{}]+)\{/.exec(css)?.[1]?.trim().split(',')[0]?.trim();
  if (!selector) throw new Error(`${file} has no rule: remove it, or give it the rules of its component.`);
  return selector;
}

describe('the webview stylesheet', () => {
  it('imports every CSS file under webview-ui/, once', () => {
    const imports = entryImports();
    expect(new Set(imports).size).toBe(imports.length);
    expect([...imports].sort()).toEqual(
      cssFiles(UI)
        .filter((f) => f !== 'webview.css')
        .sort(),
    );
  });

  it('bundles each file it imports into one stylesheet', async () => {
    const result = await esbuild.build({ entryPoints: [ENTRY], bundle: true, write: false, logLevel: 'silent' });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    const bundle = result.outputFiles[0]!.text;
    expect(bundle).not.toContain('@import');
    const lines = new Set(bundle.split('\n'));
    for (const file of entryImports()) {
      const selector = firstSelector(file);
      expect(lines.has(`${selector} {`) || lines.has(`${selector},`), `${file}: ${selector}`).toBe(true);
    }
  });
});

/**
 * The browser-test harness: a static server on 127.0.0.1 serving the real webview page
 * (renderWebviewHtml, real CSP), the built bundle and stylesheet; Debian's Chromium driven by
 * playwright-core; and the fake host bundled for injection before the page's own script.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type BrowserContext } from 'playwright-core';
import { renderWebviewHtml } from '../../src/shared/webviewHtml';

/** The tests run from the repository root (as `npm run test:browser` does). */
export const REPO_ROOT = resolve(process.cwd());
const HARNESS_DIR = join(REPO_ROOT, 'test/browser');
if (!existsSync(join(HARNESS_DIR, 'harness.ts'))) {
  throw new Error(`Run the browser tests from the repository root (the folder with package.json), not ${REPO_ROOT}.`);
}
export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-output/browser');
const BUNDLE = join(REPO_ROOT, 'dist/webview.js');
/** The one stylesheet, bundled from webview-ui/webview.css and the component CSS it imports. */
const STYLESHEET = join(REPO_ROOT, 'dist/webview.css');
/** What VS Code's webview host puts in every webview before the page's own styles (see the file). */
const VSCODE_DEFAULT_STYLESHEET = join(HARNESS_DIR, 'vscodeDefaultStyles.css');

import { CHROMIUM_FLAGS } from '../support/chromium';

export { CHROMIUM_FLAGS };

/** Debian's Chromium (or CAIRN_CHROMIUM); undefined when it is not installed. */
export function findChromium(): string | undefined {
  // A path given on purpose is the only one tried, so a wrong one is reported rather than worked around.
  const candidates = process.env.CAIRN_CHROMIUM ? [process.env.CAIRN_CHROMIUM] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p) => existsSync(p));
}

export const CHROMIUM_MISSING =
  "Chromium is not installed, so the webview browser tests cannot run. Install Debian's Chromium with " +
  '`sudo apt-get update && sudo apt-get install -y chromium` (or set CAIRN_CHROMIUM to a Chromium binary); ' +
  '`npx playwright install` cannot download browsers here.';

function newestMtime(dir: string): { path: string; mtimeMs: number } {
  let newest = { path: dir, mtimeMs: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name.endsWith('.test.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    const mtimeMs = statSync(path).mtimeMs;
    if (mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
  }
  return newest;
}

/** Fails with what to do when the bundle or the stylesheet is missing or older than its sources. */
export function assertBundleFresh(): void {
  for (const output of [BUNDLE, STYLESHEET]) {
    if (!existsSync(output)) throw new Error(`${output} does not exist: run \`npm run build\` before the browser tests.`);
    const built = statSync(output).mtimeMs;
    for (const dir of ['webview-ui', 'src/shared']) {
      const newest = newestMtime(join(REPO_ROOT, dir));
      if (newest.mtimeMs > built)
        throw new Error(`${relative(REPO_ROOT, output)} is older than ${newest.path}: run \`npm run build\` before the browser tests.`);
    }
  }
}

/** The fake host as one IIFE script, for Playwright's addInitScript. */
export async function bundleFakeHost(): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [join(HARNESS_DIR, 'fakeHost.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no fake host bundle');
  return file.text;
}

export interface HarnessServer {
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Serves the webview page for each view, the bundle and the stylesheet; nothing else. The bundle and
 * stylesheet are read once, at start: others may rebuild dist/ while the tests run.
 */
export async function startHarnessServer(): Promise<HarnessServer> {
  const bundle = readFileSync(BUNDLE);
  const stylesheet = readFileSync(STYLESHEET);
  const defaultStylesheet = readFileSync(VSCODE_DEFAULT_STYLESHEET);
  let origin = '';
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const send = (status: number, type: string, body: string | Buffer) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    if (path === '/chat.html' || path === '/report.html') {
      const html = renderWebviewHtml({
        scriptUri: `${origin}/dist/webview.js`,
        styleUri: `${origin}/dist/webview.css`,
        cspSource: origin,
        nonce: randomBytes(16).toString('base64'),
        view: path === '/report.html' ? 'report' : 'chat',
      });
      // VS Code's default styles come first, as in the real webview, so the page's own rules win ties.
      const withDefaults = html.replace(
        '<link rel="stylesheet"',
        `<link rel="stylesheet" href="${origin}/vscode-default.css">\n<link rel="stylesheet"`,
      );
      if (withDefaults === html) throw new Error("The webview page has no stylesheet link to put VS Code's default styles before.");
      send(200, 'text/html; charset=utf-8', withDefaults);
    } else if (path === '/favicon.ico') {
      send(204, 'image/x-icon', '');
    } else if (path === '/dist/webview.js') {
      send(200, 'text/javascript; charset=utf-8', bundle);
    } else if (path === '/vscode-default.css') {
      send(200, 'text/css; charset=utf-8', defaultStylesheet);
    } else if (path === '/dist/webview.css') {
      send(200, 'text/css; charset=utf-8', stylesheet);
    } else {
      send(404, 'text/plain', 'not found');
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with the CI flags and a fresh profile that is removed on close. */
export async function launchChromium(executablePath: string): Promise<Browser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'cairn-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 440, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

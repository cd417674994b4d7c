import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import {
  assertBundleFresh,
  bundleFakeHost,
  launchChromium,
  SCREENSHOT_DIR,
  startHarnessServer,
  type Browser,
  type HarnessServer,
} from './harness';

/*
 * Kept apart from harness.ts, which the hot-path benchmark imports outside vitest (vitest's hooks cannot
 * be imported there).
 */

/** A browser test file's Chromium, page server and fake host script, started once before its tests and closed after. */
export interface BrowserSuite {
  readonly server: HarnessServer;
  readonly browser: Browser;
  readonly fakeHostScript: string;
}

/** Call at the top of a `describe` block: registers the start (bundle checked, screenshots folder made) and the close. */
export function useBrowserSuite(executablePath: string | undefined): BrowserSuite {
  let started: { server: HarnessServer; browser: Browser; fakeHostScript: string } | undefined;
  const opened: { server?: HarnessServer; browser?: Browser } = {};
  beforeAll(async () => {
    assertBundleFresh();
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const fakeHostScript = await bundleFakeHost();
    opened.server = await startHarnessServer();
    opened.browser = await launchChromium(executablePath!);
    started = { server: opened.server, browser: opened.browser, fakeHostScript };
  });
  afterAll(async () => {
    await opened.browser?.close();
    await opened.server?.close();
  });
  const get = () => {
    if (!started) throw new Error('The browser suite has not started: call useBrowserSuite inside a describe block.');
    return started;
  };
  return {
    get server() {
      return get().server;
    },
    get browser() {
      return get().browser;
    },
    get fakeHostScript() {
      return get().fakeHostScript;
    },
  };
}

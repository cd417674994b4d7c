/**
 * The context report's bar in real Chromium on the built webview, with the fake host, in every kind of theme:
 * thinking, web pages and images (which once shared the last colour) each have their own, shared with no other
 * source, and each stands out from the panel behind the bar (WCAG's 3:1 for graphics). Screenshots in test-output/browser/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeHostSetup, SessionRecording } from './fakeHost';
import { useBrowserSuite } from './browserSuite';
import { CHROMIUM_MISSING, findChromium, REPO_ROOT, SCREENSHOT_DIR } from './harness';
import { THEME_NAMES } from './themes';

const chromiumPath = findChromium();
if (!chromiumPath && process.env.CI === 'true') throw new Error(CHROMIUM_MISSING);

const recording = JSON.parse(readFileSync(join(REPO_ROOT, 'test/browser/fixtures/session.json'), 'utf8')) as SessionRecording;

/** Every kind of source a request can have, each with a share of the bar. */
const SOURCES = [
  'preamble',
  'tools: 8 tools',
  'rules: AGENTS.md',
  'project_context',
  'session_date',
  'mcp_tools',
  'conversation: 12 messages',
  'thinking',
  'web_pages: 2 pages',
  'images: 2 images',
].map((name) => ({ name, bytes: 4000, tokensRaw: 1000, tokensCalibrated: 1000 }));

function withSources(): SessionRecording {
  const snapshots = (recording.reportInit.snapshots ?? []).map((s, i, all) => (i === all.length - 1 ? { ...s, sources: SOURCES } : s));
  return { ...recording, reportInit: { ...recording.reportInit, snapshots }, reportScript: [], script: [] };
}

describe.skipIf(!chromiumPath)("the context report's bar", () => {
  const suite = useBrowserSuite(chromiumPath);

  for (const theme of THEME_NAMES) {
    it(`gives thinking, web pages and images a colour each, no other source's, standing out from the panel (${theme})`, async () => {
      const page = await suite.browser.context.newPage();
      await page.setViewportSize({ width: 1100, height: 860 });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const setup: FakeHostSetup = { recording: withSources(), theme };
      await page.addInitScript({ content: `window.__cairnFakeHostSetup = ${JSON.stringify(setup)};\n${suite.fakeHostScript}` });
      await page.goto(`${suite.server.origin}/report.html`);
      const bar = page.locator('.request-details .stacked-bar');
      await bar.locator('[data-source="images: 2 images"]').waitFor({ timeout: 15_000 });
      expect(errors).toEqual([]);
      const colours = await bar.evaluate((element) => {
        const rgb = (css: string) =>
          (/rgba?\(([^)]*)\)/.exec(css)?.[1] ?? '0 0 0')
            .split(/[\s,/]+/)
            .filter(Boolean)
            .map(Number);
        const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
          const c = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
          return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
        };
        // What is behind the bar: the nearest ancestor with a background of its own.
        let behind: Element | null = element.parentElement;
        while (behind && rgb(getComputedStyle(behind).backgroundColor)[3] === 0) behind = behind.parentElement;
        const panel = luminance(rgb(getComputedStyle(behind ?? document.body).backgroundColor));
        return [...element.querySelectorAll<HTMLElement>('.bar-segment')].map((segment) => {
          const style = getComputedStyle(segment);
          // A source is told apart by its colour and its pattern (a stripe, where a theme gives two charts one colour).
          const colour = style.backgroundImage === 'none' ? style.backgroundColor : style.backgroundImage;
          const [light, dark] = [luminance(rgb(colour)), panel].sort((x, y) => y - x) as [number, number];
          return { source: segment.dataset.source!, colour, contrast: (light + 0.05) / (dark + 0.05) };
        });
      });
      await page.screenshot({ path: join(SCREENSHOT_DIR, `report-source-colours-${theme}.png`) });
      await page.close();
      expect(colours.map((c) => c.source)).toEqual(SOURCES.map((s) => s.name));
      const of = (source: string) => colours.find((c) => c.source === source)!.colour;
      const three = [of('thinking'), of('web_pages: 2 pages'), of('images: 2 images')];
      expect(new Set(three).size, `thinking, pages, images: ${three.join(' | ')}`).toBe(3);
      // And no two sources look alike (High Contrast Light's orange is its red: there the orange is striped).
      expect(new Set(colours.map((c) => c.colour)).size, colours.map((c) => `${c.source}: ${c.colour}`).join(' | ')).toBe(colours.length);
      for (const { source, colour, contrast } of colours.filter((c) => three.includes(c.colour)))
        expect(contrast, `${source} (${colour}) on the panel`).toBeGreaterThanOrEqual(3);
    });
  }
});

/**
 * The webview in Debian's Chromium, through the browser-test harness (its page, real CSP, the built
 * `dist/webview.js` and the FAKE host that plays a recording): the first render of a 1,000-turn transcript
 * against the browser showing the same text as a static page, and frame intervals while an answer streams
 * against frame intervals of the same page idle.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { InitMessage, TurnView } from '../../src/shared/protocol';
import type { FakeHostSetup, SessionRecording } from '../../test/browser/fakeHost';
import { bundleFakeHost, findChromium, launchChromium, REPO_ROOT, startHarnessServer } from '../../test/browser/harness';
import type { HotFigure } from './figure';

const TURNS = 1_000;
/** As the host sends a session's opening view (`INIT_TURNS` in src/host/initMessage.ts). */
const HOST_INIT_TURNS = 30;

function turn(index: number): TurnView {
  const id = `#${(0x1000 + index).toString(16)}`;
  const lines = Array.from({ length: 12 }, (_, l) => `${l + 1}: export function step${index}_${l}() { return load('${index}/${l}'); }`);
  const bracket = `[${id} src/module${index}.ts lines 1-12 of 12 sha 0a1b2c3d]`;
  return {
    index,
    items: [
      { type: 'user', text: `Turn ${index}: look at src/module${index}.ts and explain what step${index}_3 does.` },
      {
        type: 'tool',
        callId: `toolu_${index}`,
        tool: 'read',
        summary: `src/module${index}.ts`,
        status: 'done',
        result: {
          id,
          tool: 'read',
          bracket,
          text: `${bracket}\n${lines.join('\n')}`,
          kind: 'full',
          fullChars: 900,
          tokensSaved: 0,
          isError: false,
        },
      },
      {
        type: 'assistant',
        text: `\`step${index}_3\` loads **${index}/3** through \`load\` (see ${id}).\n\n- it takes no arguments\n- it returns what \`load\` returns\n\n\`\`\`ts\nstep${index}_3();\n\`\`\``,
      },
    ],
  };
}

function recordingOf(turns: readonly TurnView[], initCount: number): SessionRecording {
  const shown = turns.slice(turns.length - initCount);
  const chatInit: InitMessage = {
    type: 'init',
    protocolVersion: 1,
    view: 'chat',
    sessionTitle: 'Benchmark: a 1,000-turn session',
    busy: false,
    hasOlderTurns: initCount < turns.length,
    turns: shown,
    resultIds: turns.flatMap((t) => t.items.flatMap((i) => (i.type === 'tool' && i.result ? [i.result.id] : []))),
  };
  const reportInit: InitMessage = {
    type: 'init',
    protocolVersion: 1,
    view: 'report',
    sessionTitle: chatInit.sessionTitle,
    busy: false,
    hasOlderTurns: false,
    resultIds: [],
    turns: [],
    snapshots: [],
  };
  return {
    chatInit,
    script: [],
    olderTurns: turns.slice(0, turns.length - initCount),
    recalls: {},
    compactionDetails: {},
    reportInit,
    reportScript: [],
  };
}

function staticHtml(turns: readonly TurnView[]): string {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const body = turns
    .map(
      (t) =>
        `<section class="turn" data-turn="${t.index}">${t.items.map((item) => `<pre>${escape('text' in item ? item.text : item.type === 'tool' ? (item.result?.bracket ?? '') : '')}</pre>`).join('')}</section>`,
    )
    .join('');
  return `<!doctype html><html><body>${body}</body></html>`;
}

/** Set by an init script: when the selector first matches, the time of the next frame since navigation start. */
const RENDER_PROBE = `(() => {
  const observer = new MutationObserver(() => {
    if (!document.querySelector(__SELECTOR__)) return;
    observer.disconnect();
    requestAnimationFrame(() => { window.__renderedAt = performance.now(); });
  });
  observer.observe(document, { childList: true, subtree: true });
})();`;

/** Sets the static markup in an empty page and returns the time to the next frame after it. */
const STATIC_PROBE = `new Promise((resolve) => {
  const start = performance.now();
  document.body.innerHTML = __HTML__;
  void document.body.offsetHeight;
  requestAnimationFrame(() => resolve(performance.now() - start));
})`;

/** Records requestAnimationFrame intervals while (optionally) the fake host streams 400 deltas, one per 10 ms. */
const FRAME_PROBE = `(async () => {
  const streaming = __STREAMING__;
  const host = window.fakeHost;
  const intervals = [];
  let last = performance.now();
  let running = true;
  const tick = (now) => { intervals.push(now - last); last = now; if (running) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  const turnNo = 5000;
  if (streaming) host.post({ type: 'turnStarted', turn: turnNo, text: 'Stream a long answer.' });
  for (let i = 0; i < 400; i++) {
    if (streaming) host.post({ type: 'textDelta', turn: turnNo, text: i % 40 === 39 ? '\\n\\n\\u0060\\u0060\\u0060ts\\nconst x' + i + ' = ' + i + ';\\n\\u0060\\u0060\\u0060\\n\\n' : 'word' + i + ' and **more** text, ' });
    await new Promise((done) => setTimeout(done, 10));
  }
  if (streaming) host.post({ type: 'assistantDone', turn: turnNo, incomplete: false });
  await new Promise((done) => setTimeout(done, 100));
  running = false;
  return intervals.slice(1);
})()`;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[s.length >> 1]! : (s[(s.length >> 1) - 1]! + s[s.length >> 1]!) / 2;
}

function p95(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]!;
}

function skipped(reason: string): HotFigure[] {
  return [
    {
      group: 'webview',
      name: 'first render and streaming',
      measured: 0,
      baseline: 0,
      baselineLabel: 'n/a',
      ratio: Number.NaN,
      note: `not run: ${reason}`,
    },
  ];
}

export async function webviewRender(rounds = 3): Promise<HotFigure[]> {
  const chromium = findChromium();
  if (!chromium) return skipped('Chromium is not installed (apt-get install chromium, or set CAIRN_CHROMIUM)');
  if (!existsSync(join(REPO_ROOT, 'dist/webview.js'))) return skipped('dist/webview.js is missing: run `npm run build` first');
  const turns = Array.from({ length: TURNS }, (_, i) => turn(i));
  const fakeHostScript = await bundleFakeHost();
  const server = await startHarnessServer();
  const browser = await launchChromium(chromium);
  const out: HotFigure[] = [];
  try {
    // Both sides are timed inside the page: from navigation start to the first frame after the newest turn
    // is in the DOM (the webview: loading its bundle, init message, rendering), and from setting the
    // static markup to the first frame after it (the browser's own cost of showing that text).
    const openChat = async (initCount: number) => {
      const page = await browser.context.newPage();
      const setup: FakeHostSetup = { recording: recordingOf(turns, initCount), theme: 'dark' };
      await page.addInitScript({
        content: `window.__cairnFakeHostSetup = ${JSON.stringify(setup)};\n${fakeHostScript}\n${RENDER_PROBE.replace('__SELECTOR__', () => JSON.stringify(`.turn[data-turn="${TURNS - 1}"]`))}`,
      });
      await page.goto(`${server.origin}/chat.html`);
      await page.waitForFunction('window.__renderedAt !== undefined', undefined, { timeout: 60_000 });
      return { page, ms: (await page.evaluate('window.__renderedAt')) as number };
    };
    const openStatic = async (shown: readonly TurnView[]) => {
      const page = await browser.context.newPage();
      await page.goto(`${server.origin}/favicon.ico`).catch(() => undefined);
      const ms = (await page.evaluate(STATIC_PROBE.replace('__HTML__', () => JSON.stringify(staticHtml(shown))))) as number;
      await page.close();
      return ms;
    };

    for (const initCount of [HOST_INIT_TURNS, TURNS]) {
      const measured: number[] = [];
      const baseline: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const { page, ms } = await openChat(initCount);
        measured.push(ms);
        await page.close();
        baseline.push(await openStatic(turns.slice(TURNS - initCount)));
      }
      const m = median(measured);
      const b = median(baseline);
      out.push({
        group: 'webview',
        name:
          initCount === TURNS
            ? `first render, all ${TURNS} turns in the init message`
            : `first render of a ${TURNS}-turn session (newest ${initCount} sent, as the host does)`,
        note: 'measured from navigation start: includes loading and parsing dist/webview.js',
        measured: m,
        baseline: b,
        baselineLabel: "setting the same turns' text as static markup",
        ratio: m / b,
      });
    }

    // Frame intervals while 400 text deltas arrive (one per 10 ms), against the same page idle.
    const { page } = await openChat(HOST_INIT_TURNS);
    // Passed as source text: the bundler's helpers (e.g. `__name`) do not exist in the page.
    const frames = async (stream: boolean): Promise<number[]> =>
      page.evaluate(FRAME_PROBE.replace('__STREAMING__', () => String(stream))) as Promise<number[]>;
    const idle = await frames(false);
    const streaming = await frames(true);
    await page.close();
    out.push({
      group: 'webview',
      name: 'frame interval while streaming 400 deltas (p95)',
      measured: p95(streaming),
      baseline: p95(idle),
      baselineLabel: 'p95 frame interval of the same page idle',
      ratio: p95(streaming) / p95(idle),
      note: `median ${median(streaming).toFixed(1)} ms streaming vs ${median(idle).toFixed(1)} ms idle; ${streaming.length} frames`,
    });
  } finally {
    await browser.close();
    await server.close();
  }
  return out;
}

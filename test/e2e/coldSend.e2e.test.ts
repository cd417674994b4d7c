// Issue 31 §3 in the real editor (code-server + Chromium, the local server): after the user was away twelve
// minutes (the probe lets the extension host's time pass; the scenario's `idle` ages the server's cache the same),
// the status bar says the cache expired, and the next message waits on the cold-send notice with what each way
// writes and costs. Cairn elides the superseded read on its own when it returns to a cold cache (the default), so
// the notice says so and offers Send as is; the request that goes carries the read elided.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { LoggedRequest } from '../../src/node/localServer/requestLog';
import { REPO_ROOT } from './environment';
import { reportFrame, runCommand, screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';
import type { ScenarioModel } from './model';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'cold-send.json');

type Block = { type: string; text?: string; content?: string | { type: string; text: string }[] };
type Body = { messages: { role: string; content: string | Block[] }[] };

const clockDir = mkdtempSync(join(tmpdir(), 'cairn-e2e-clock-'));
const CLOCK_FILE = join(clockDir, 'idle-seconds');
writeFileSync(CLOCK_FILE, '0');

describe.skipIf(!environment.available)('the cold-send notice (issue 31 §3)', () => {
  let model: ScenarioModel | undefined;
  let page: Page;
  let frame: FrameLocator;

  const scene = useScenarioEditor({
    name: 'cold-send',
    scenarioFile: SCENARIO,
    probe: true,
    env: { ANTHROPIC_API_KEY: 'sk-ant-e2e-cold-send', CAIRN_E2E_CLOCK_FILE: CLOCK_FILE },
  });
  beforeAll(() => {
    ({ model, page, frame } = scene.started());
  });
  afterAll(() => rmSync(clockDir, { recursive: true, force: true }));

  const mains = (): LoggedRequest[] => model!.server.requests.filter((r) => r.kind === 'main');
  const input = () => frame.getByRole('textbox', { name: 'Message to Cairn' });
  /** The text of every tool result in a request, in order. */
  const results = (request: LoggedRequest): string[] =>
    (request.body as Body).messages.flatMap((m) =>
      typeof m.content === 'string'
        ? []
        : m.content
            .filter((b) => b.type === 'tool_result')
            .map((b) => (typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => c.text).join(''))),
    );

  async function type(text: string): Promise<void> {
    await input().waitFor({ state: 'visible', timeout: 30_000 });
    await input().fill(text);
    await input().press('Enter');
  }

  /** The user is away `seconds`: the extension host's clock moves on (the probe says when it has). */
  async function beAway(seconds: number): Promise<void> {
    writeFileSync(CLOCK_FILE, String(seconds));
    await expect
      .poll(() => existsSync(`${CLOCK_FILE}.ack`) && readFileSync(`${CLOCK_FILE}.ack`, 'utf8'), { timeout: 15_000 })
      .toBe(String(seconds));
  }

  it('after an idle, the message waits on the notice; the send carries the superseded read elided', async () => {
    await type('Read the notes.');
    await frame.getByText('Notes read: one note now.').first().waitFor({ state: 'visible', timeout: 60_000 });
    expect(mains()).toHaveLength(3);
    // Before the idle every request carries the first read whole (80 lines).
    const first = results(mains()[2]!)[0]!;
    expect(first).toContain('note 80: the parser keeps every field');

    await beAway(720);
    // The status bar is drawn again within 15 s: the cache has expired.
    await page.locator('.statusbar-item', { hasText: 'cache expired' }).first().waitFor({ state: 'visible', timeout: 30_000 });

    await type('Now say what changed.');
    const notice = frame.getByRole('region', { name: 'Cache expired' });
    await notice.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await notice.innerText();
    // Away 12 minutes: the cache's 5 ran out 7 minutes ago (and the seconds the test took since).
    expect(text).toMatch(/The prompt cache expired [78] min ago \(it keeps 5 minutes after each request\)/);
    expect(text).toContain('Waiting to send: Now say what changed.');
    // Returning to a cold cache, Cairn elides every superseded result on its own (issue 31 §2's cold return, the
    // default): the notice says so and offers no second elision.
    expect(text).toMatch(
      /As is: writes ~[\d.]+k? tokens \(about \$[\d.]+\) \(Cairn shortens the earlier results newer ones replace first, on its own\)\./,
    );
    expect(text).not.toContain('Elide first');
    // Nothing went while the notice waits.
    expect(mains()).toHaveLength(3);
    await screenshot(page, 'cold-send-1-notice');

    await notice.getByRole('button', { name: 'Send as is' }).click();
    await frame.getByText('The parser drops empty fields now.').first().waitFor({ state: 'visible', timeout: 60_000 });
    expect(await notice.count()).toBe(0);
    expect(mains()).toHaveLength(4);
    const sent = mains()[3]!;
    const [elided, again] = results(sent);
    expect(elided).toMatch(/Elided: superseded by #[0-9a-f]+; recall #[0-9a-f]+ shows it\./);
    expect(elided).not.toContain('note 80');
    expect(again).toContain('note 1: the parser now drops empty fields');
    // The user's message went, once, after the elision.
    const last = (sent.body as Body).messages.at(-1)!;
    expect(JSON.stringify(last.content)).toContain('Now say what changed.');
    // The server's cache had expired too: what it wrote again after the idle.
    expect(sent.cache?.rewrittenAfterExpiry5m ?? 0).toBeGreaterThan(0);
    await frame
      .getByText(/Shortened 1 earlier results that newer ones replace/)
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'cold-send-2-elided');
  });

  it('the report names the expiry as that request’s cache miss, with the server’s diagnosis beside it', async () => {
    await runCommand(page, 'Cairn: Show Context Report');
    const report = reportFrame(page);
    const expired = report.locator('.request-item', { hasText: 'cache expired' });
    await expired.first().waitFor({ state: 'visible', timeout: 30_000 });
    // Only the request after the idle.
    expect(await expired.count()).toBe(1);
    await expired.first().click();
    const miss = report.getByRole('note', { name: 'Cache miss' });
    await miss.waitFor({ state: 'visible', timeout: 15_000 });
    const text = await miss.innerText();
    expect(text).toMatch(
      /Cairn Expired: 1\d(\.\d)? min since the previous request, past the cache's 5 min lifetime: [\d.]+k? tokens written to the cache again\./,
    );
    // The elision changed an earlier message: the server names that divergence (it compares prompts, not time).
    expect(text).toMatch(/Server's diagnosis an earlier message changed \(messages_changed\); [\d.]+k? tokens it could not read\./);
    await screenshot(page, 'cold-send-3-report');
  });
});

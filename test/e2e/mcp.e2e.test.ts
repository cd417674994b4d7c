// MCP (issue 20) in the real editor: a workspace whose `.vscode/mcp.json` declares a password input and
// the reference "everything" server over stdio, the input's value passed to the server's environment.
// Opening the chat assembles a session: a modal dialog first asks whether the workspace's server may start
// (issue 28: its command, arguments and env keys shown; nothing runs while it waits), then VS Code's input
// box asks for the value once; the model calls
// `mcp__everything__echo`, which asks for approval in the chat showing the server and the arguments;
// allowed once, the result (with its id bracket) and the final answer appear. Then the value the user
// typed (a random canary) must be in no file on disk: not the workspace, the editor's user data (logs,
// extension storage, the session journal), the extensions folder, the browser profile or the test's logs;
// code-server's own secret store (the browser's localStorage) holds it sealed, not in plain text.
// Last, the repository changes the server's command: the next session asks again, and the new command runs
// only once allowed. Workspace trust is off in this editor as in the other tests, so the folder is trusted.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, lstatSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { OUTPUT_DIR, REPO_ROOT } from './environment';
import { openCairnView, runCommand, screenshot, startEditor, type RunningEditor } from './harness';
import { startScenarioModel, type ScenarioModel } from './model';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'mcp-echo.json');
const EVERYTHING_SERVER = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const NAME = 'mcp';
const CANARY = `e2e-mcp-canary-${randomBytes(8).toString('hex')}`;
/** Files larger than this are not read (none of the editor's text files come near it). */
const MAX_SCANNED_BYTES = 8 * 1024 * 1024;
const INPUT_BOX_TITLE = 'MCP input "token"';
const START_QUESTION = 'Start the MCP server "everything" of this workspace?';
const CHANGED_QUESTION = 'The MCP server "everything" of this workspace changed since you allowed it.';
/** The changed definition's command: another spelling of node, and an argument the first one did not have. */
const CHANGED_COMMAND = process.execPath;

async function send(frame: FrameLocator, text: string): Promise<void> {
  const input = frame.locator('textarea');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(text);
  await input.press('Enter');
}

function writeMcpJson(
  workspaceDir: string,
  server: { command: string; args: string[] } = { command: 'node', args: [EVERYTHING_SERVER] },
): void {
  mkdirSync(join(workspaceDir, '.vscode'), { recursive: true });
  const config = {
    inputs: [{ type: 'promptString', id: 'token', description: 'Test token', password: true }],
    servers: {
      everything: { type: 'stdio', ...server, env: { E2E_TOKEN: '${input:token}' } },
    },
  };
  writeFileSync(join(workspaceDir, '.vscode', 'mcp.json'), JSON.stringify(config, null, 2));
}

/**
 * Counts, in the page, each time VS Code's quick input opens with the token's input box (a
 * MutationObserver: the box may open and close between two polls of the test).
 */
async function countInputBoxes(page: Page): Promise<void> {
  await page.evaluate((title) => {
    const counter = window as unknown as { cairnMcpInputBoxes: number };
    counter.cairnMcpInputBoxes = 0;
    let showing = false;
    const check = (): void => {
      const widget = document.querySelector<HTMLElement>('.quick-input-widget');
      const text = widget?.querySelector('.quick-input-title')?.textContent ?? '';
      const now = widget !== null && widget.style.display !== 'none' && text.includes(title);
      if (now && !showing) counter.cairnMcpInputBoxes++;
      showing = now;
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    check();
  }, INPUT_BOX_TITLE);
}

async function inputBoxesShown(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { cairnMcpInputBoxes: number }).cairnMcpInputBoxes);
}

/** Counts, in the page, each time a modal dialog about the "everything" server opens (as `countInputBoxes`). */
async function countStartQuestions(page: Page): Promise<void> {
  await page.evaluate(() => {
    const counter = window as unknown as { cairnMcpStartQuestions: number };
    counter.cairnMcpStartQuestions = 0;
    let showing = false;
    const check = (): void => {
      const now = [...document.querySelectorAll('.monaco-dialog-box')].some((box) => box.textContent?.includes('MCP server "everything"'));
      if (now && !showing) counter.cairnMcpStartQuestions++;
      showing = now;
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    check();
  });
}

async function startQuestionsShown(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { cairnMcpStartQuestions: number }).cairnMcpStartQuestions);
}

/** The processes whose parent is `parent` and whose command line has `marker`, with their arguments. */
function childProcesses(marker: string, parent?: number): { pid: number; args: string[] }[] {
  const found: { pid: number; args: string[] }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (!args.some((arg) => arg.includes(marker))) continue;
      // /proc/PID/stat: "pid (comm) state ppid ...": comm may hold spaces, so read after its ")".
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === undefined || ppid === parent) found.push({ pid: Number(entry), args });
    } catch {
      // The process ended while it was read.
    }
  }
  return found;
}

/** The profile folder Playwright gave the Chromium this test process launched (it deletes it on close). */
function chromiumProfileDir(): string | undefined {
  for (const { args } of childProcesses('--user-data-dir=', process.pid)) {
    const flag = args.find((arg) => arg.startsWith('--user-data-dir='));
    if (flag) return flag.slice('--user-data-dir='.length);
  }
  return undefined;
}

/**
 * Every regular file under `root` (symbolic links, sockets and pipes skipped) whose bytes hold `needle`
 * as UTF-8 or UTF-16LE (Chromium keeps some strings, localStorage among them, as UTF-16).
 */
function filesHolding(root: string, needle: string): { found: string[]; scanned: number } {
  const patterns = [Buffer.from(needle, 'utf8'), Buffer.from(needle, 'utf16le')];
  const found: string[] = [];
  let scanned = 0;
  const walk = (path: string): void => {
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      return; // Removed while scanning (a lock file, a temporary file).
    }
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) walk(join(path, name));
      return;
    }
    if (!stat.isFile() || stat.size > MAX_SCANNED_BYTES) return;
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      return;
    }
    scanned++;
    if (patterns.some((pattern) => bytes.includes(pattern))) found.push(path);
  };
  walk(root);
  return { found, scanned };
}

/** Cairn's output channel as VS Code writes it to the window's logs (`…/exthost/output_logging_…/N-Cairn.log`). */
function cairnLogFiles(userDataDir: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.isFile() && entry.name.endsWith('Cairn.log')) files.push(join(dir, entry.name));
    }
  };
  walk(join(userDataDir, 'logs'));
  return files;
}

describe.skipIf(!environment.available)('an MCP server of the workspace, its input asked once and kept off the disk', () => {
  let editor: RunningEditor | undefined;
  let model: ScenarioModel | undefined;
  let scratch = '';
  let workspaceDir = '';
  let page: Page;
  let frame: FrameLocator;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'cairn-e2e-mcp-'));
    workspaceDir = join(scratch, 'workspace');
    mkdirSync(workspaceDir);
    writeMcpJson(workspaceDir);
    model = await startScenarioModel({ scenarioFile: SCENARIO, workspaceDir });
    editor = await startEditor({
      workspaceDir,
      settings: { 'cairn.baseUrl': model.url },
      env: { ANTHROPIC_API_KEY: 'sk-ant-e2e-mcp' },
      name: NAME,
    });
    page = editor.page;
    // Before the chat opens: opening it activates Cairn, which assembles the session and asks at once.
    await countInputBoxes(page);
    await countStartQuestions(page);
  });

  afterAll(async () => {
    await editor?.close();
    await model?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("asks whether the workspace's server may start, showing what it runs; nothing runs until the user allows it", async () => {
    const dialog = page.locator('.monaco-dialog-box', { hasText: START_QUESTION });
    const [, opened] = await Promise.all([dialog.waitFor({ state: 'visible', timeout: 60_000 }), openCairnView(page)]);
    frame = opened;
    const asked = await dialog.innerText();
    expect(asked).toContain('.vscode/mcp.json of folder "workspace"');
    expect(asked).toContain('Command: "node"');
    expect(asked).toContain(EVERYTHING_SERVER);
    expect(asked).toContain('"E2E_TOKEN"');
    // The input is asked only once the server may start.
    expect(await page.locator('.quick-input-widget .quick-input-title', { hasText: INPUT_BOX_TITLE }).isVisible()).toBe(false);
    await screenshot(page, 'mcp-0-start-question');
    // While the question waits, the server is not running (and stays so for a while).
    await new Promise((r) => setTimeout(r, 3_000));
    expect(childProcesses(EVERYTHING_SERVER)).toEqual([]);
    await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
  });

  it('asks for the input in an input box once the server may start', async () => {
    await page
      .locator('.quick-input-widget .quick-input-title', { hasText: INPUT_BOX_TITLE })
      .waitFor({ state: 'visible', timeout: 60_000 });
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    // A password box: what is typed is not shown.
    expect(await input.getAttribute('type')).toBe('password');
    expect(await page.locator('.quick-input-widget').innerText()).toContain('Test token');
    await screenshot(page, 'mcp-1-input-box');
    await input.fill(CANARY);
    await input.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 15_000 });
  });

  it('asks before the MCP call, showing the server, the tool and the arguments; allowed once, the result and the answer appear', async () => {
    await send(frame, 'Echo a greeting through the MCP server.');
    const prompt = frame.getByRole('group', { name: 'Approve mcp__everything__echo' });
    await prompt.waitFor({ state: 'visible', timeout: 90_000 });
    const asked = await prompt.innerText();
    expect(asked).toMatch(/MCP server\s+everything\s*,\s*tool\s+echo/);
    expect(asked).toContain('"message": "hello from e2e"');
    expect(asked).toContain('Allow this mcp__everything__echo call?');
    await screenshot(page, 'mcp-2-approval');
    await prompt.getByRole('button', { name: 'Allow once' }).click();
    await frame.getByText('The everything server echoed the greeting back.').first().waitFor({ state: 'visible', timeout: 90_000 });
    // The tool line: the call's summary and the result's id bracket; expanded, what the server answered.
    const line = frame.locator('.tool', { has: frame.locator('.tool-name', { hasText: 'mcp__everything__echo' }) }).first();
    expect(await line.locator('.tool-summary').innerText()).toContain('everything echo {"message":"hello from e2e"}');
    expect(await line.locator('.tool-bracket').innerText()).toMatch(/^\[#[0-9a-f]{4,}[^\]]*\]/);
    await line.locator('.tool-toggle').click();
    await line.locator('.tool-result-text', { hasText: 'Echo: hello from e2e' }).waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'mcp-3-answered');
    // What the server answered went back to the model as the tool's result.
    const sent = model!.server.requests.map((r) => r.rawBody).join('\n');
    expect(sent).toContain('Echo: hello from e2e');
    expect(sent).toContain('mcp__everything__echo');
  });

  it('started the server with the value in its environment', async () => {
    await expect
      .poll(() => childProcesses(EVERYTHING_SERVER).length, { timeout: 30_000, message: 'the everything server was not started' })
      .toBeGreaterThan(0);
    const environs = childProcesses(EVERYTHING_SERVER).map(({ pid }) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0'));
    expect(environs.some((env) => env.includes(`E2E_TOKEN=${CANARY}`))).toBe(true);
    // Cairn's own key never reaches a server.
    expect(environs.flat().some((entry) => entry.startsWith('ANTHROPIC_'))).toBe(false);
  });

  it('does not ask for the input again: a second message, then a new session', async () => {
    await send(frame, 'Anything else?');
    await frame.getByText('Nothing else: the echo worked.').first().waitFor({ state: 'visible', timeout: 90_000 });
    // A new session reads mcp.json again and takes the value from the secret storage.
    await runCommand(page, 'Cairn: New Session');
    frame = await openCairnView(page);
    await expect.poll(() => childProcesses(EVERYTHING_SERVER).length, { timeout: 30_000 }).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await page.locator('.quick-input-widget .quick-input-title', { hasText: INPUT_BOX_TITLE }).isVisible()).toBe(false);
    expect(await inputBoxesShown(page)).toBe(1);
    // Nor whether the server may start: the answer is remembered for this definition.
    expect(await startQuestionsShown(page)).toBe(1);
    // Cairn's output says it stored the value once (the value itself is checked for below, on disk).
    const cairnLog = cairnLogFiles(editor!.userDataDir)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    expect(cairnLog.match(/MCP input "token" of .* was saved in secret storage/g)).toHaveLength(1);
    expect(cairnLog).not.toContain('was not given');
  });

  it("keeps the value in code-server's secret storage sealed: the browser's localStorage, encrypted", async () => {
    // code-server's workbench keeps VS Code's SecretStorage in the browser's localStorage under
    // `secrets.provider`, sealed with AES under a key whose server half is <user-data-dir>/serve-web-key-half
    // (code-server's /mint-key). In these tests the page is in a Playwright context, whose storage never
    // reaches disk; in a user's browser the sealed text is written to the browser profile.
    const sealed = await page.evaluate(() => localStorage.getItem('secrets.provider'));
    expect(sealed, "code-server's secret store (localStorage secrets.provider) was not found").toEqual(expect.any(String));
    expect(sealed).not.toContain(CANARY);
    expect(sealed).not.toContain('cairn.mcp.input');
  });

  it('wrote the input value to no file on disk', () => {
    const profile = chromiumProfileDir();
    // The browser profile (localStorage, IndexedDB, caches): it must be found, or this test would check
    // less than it says.
    expect(profile, 'the Chromium profile folder of this test was not found in /proc').toBeDefined();
    const roots = [
      workspaceDir,
      // The editor's run folder: user data (settings, logs, extension global and workspace storage, the
      // session journals), the extensions folder, code-server's XDG config and data.
      dirname(editor!.userDataDir),
      profile!,
      // This test's own logs: code-server's output and the browser console.
      join(OUTPUT_DIR, `${NAME}.code-server.log`),
      join(OUTPUT_DIR, `${NAME}.browser.log`),
    ];
    const found: string[] = [];
    let scanned = 0;
    for (const root of roots) {
      const result = filesHolding(root, CANARY);
      found.push(...result.found);
      scanned += result.scanned;
    }
    expect(scanned).toBeGreaterThan(50);
    expect(found).toEqual([]);
    // The scan does reach what the session wrote: the call's arguments are in its journal.
    const journals = filesHolding(dirname(editor!.userDataDir), 'hello from e2e').found;
    expect(journals.some((file) => /globalStorage\/cairn\.cairn\/sessions\/.+\/journal\.jsonl$/.test(file))).toBe(true);
  });

  it("asks again once the repository changes the server's command; the new command runs only after Allow", async () => {
    writeMcpJson(workspaceDir, { command: CHANGED_COMMAND, args: [EVERYTHING_SERVER, 'stdio'] });
    const changedRuns = (): number => childProcesses(EVERYTHING_SERVER).filter(({ args }) => args.at(-1) === 'stdio').length;
    const dialog = page.locator('.monaco-dialog-box', { hasText: CHANGED_QUESTION });
    await Promise.all([dialog.waitFor({ state: 'visible', timeout: 60_000 }), runCommand(page, 'Cairn: New Session')]);
    const asked = await dialog.innerText();
    expect(asked).toContain(`Command: "${CHANGED_COMMAND}"`);
    expect(asked).toContain('"stdio"');
    await screenshot(page, 'mcp-5-changed-question');
    await new Promise((r) => setTimeout(r, 3_000));
    expect(changedRuns()).toBe(0);
    expect(await startQuestionsShown(page)).toBe(2);
    await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
    frame = await openCairnView(page);
    await send(frame, 'Still there?');
    await frame.getByText('Still here, with the changed server.').first().waitFor({ state: 'visible', timeout: 90_000 });
    await expect.poll(changedRuns, { timeout: 30_000, message: 'the changed server was not started once allowed' }).toBeGreaterThan(0);
    // The token was not asked again: it belongs to the folder's input, not to the definition.
    expect(await inputBoxesShown(page)).toBe(1);
  });
});

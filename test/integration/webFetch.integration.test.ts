/**
 * web_fetch through the real loop: the real SDK client against the local Anthropic-compatible server, the real
 * ledger and journal, Node's fetcher against a test-owned HTTP server on 127.0.0.1 (the loopback allowance set,
 * or not), its pages turned into Markdown by Readability and Turndown.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../../src/core/agent/approval';
import { DEFAULT_WEB_FETCH_SETTINGS, NodeWebPageSource, type WebFetchSettings } from '../../src/node/web/nodeWebPageSource';
import { refusedAddressReason } from '../../src/node/web/addressPolicy';
import { mainRequests, startScenarioSession, toolResultTexts, type ScenarioSession } from './harness';

const model = { id: 'claude-test-model', context_window: 200000, max_output: 64000 };

const ARTICLE = `<!doctype html><html><head><title>Release notes</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Release notes</h1>
<p>Version 2.0 adds <strong>streaming</strong> and a <a href="/docs/stream">guide to it</a>.</p>
<p>It also fixes the crash on start that many of you reported, and makes the first run faster by caching the index.</p>
<ul><li>Streaming responses</li><li>Faster first run</li></ul>
<pre><code>npm install thing@2</code></pre>
</article><footer>© 2026</footer><script>alert(1)</script></body></html>`;

let open: ScenarioSession | undefined;
const servers: Server[] = [];
afterEach(async () => {
  await open?.close();
  open = undefined;
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
});

/** A test-owned page server on `host`: `routes` by path (a function answers the response itself). */
async function pageServer(host: string, routes: Record<string, string | ((res: ServerResponse) => void)>): Promise<string> {
  const server = createServer((req, res) => {
    const route = routes[req.url ?? '/'];
    if (typeof route === 'function') return route(res);
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(route);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, host, done));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

function fetcher(settings: Partial<WebFetchSettings> = {}, refusal = refusedAddressReason): NodeWebPageSource {
  return new NodeWebPageSource(() => ({ ...DEFAULT_WEB_FETCH_SETTINGS, ...settings }), refusal);
}

function lastResults(s: ScenarioSession): string[] {
  const bodies = mainRequests(s.server);
  return toolResultTexts(bodies[bodies.length - 1]);
}

const fetches = (...urls: string[]) => ({
  model,
  turns: [
    { user: 'read the page' },
    ...urls.map((url) => ({ assistant: { tool_calls: [{ name: 'web_fetch', input: { url } }] } })),
    { assistant: { text: 'Done.' } },
  ],
});

const allowLoopback = (host = '127.0.0.1') => ({ alwaysAllow: new Set([`web_fetch(domain:${host})`]), workspaceTrusted: true });

describe('web_fetch through the real loop', () => {
  it('offers web_fetch, answers a page as Markdown with an id, and the same URL with the same page as Same result as', async () => {
    const base = await pageServer('127.0.0.1', { '/notes': ARTICLE });
    open = await startScenarioSession(fetches(`${base}/notes`, `${base}/notes`), {
      web: fetcher({ allowPrivateAddresses: true }),
      approvals: allowLoopback(),
    });
    expect(await open.assembled.session.send('read the page')).toBe('end_turn');
    const first = mainRequests(open.server)[0] as { tools: Array<{ name: string }> };
    expect(first.tools.map((tool) => tool.name)).toContain('web_fetch');
    const [page, again] = lastResults(open);
    const id = /^\[(#[0-9a-f]+)\]/.exec(page!)?.[1];
    expect(page).toContain(`URL: ${base}/notes`);
    expect(page).toContain('Title: Release notes');
    expect(page).toContain('Status: 200 text/html');
    expect(page).toContain('**streaming**');
    expect(page).toContain(`[guide to it](${base}/docs/stream)`);
    expect(page).toMatch(/^-\s+Streaming responses$/m);
    expect(page).toContain('```\nnpm install thing@2\n```');
    expect(page).not.toContain('alert(1)');
    expect(again).toBe(`[${(/^\[(#[0-9a-f]+)\]/.exec(again!) ?? [])[1]}] Same result as ${id}.`);
    // Stored in full: recall reads the page back from the journal.
    // The report counts the fetched pages as a source of their own, apart from the rest of the conversation.
    const finished = open.events.flatMap((event) => (event.type === 'request_finished' ? [event.snapshot] : []));
    const last = finished[finished.length - 1]!;
    const pages = last.sources.find((source) => source.source === 'web_pages');
    expect(pages?.label).toBe('2 fetched pages');
    expect(pages!.bytes).toBeGreaterThan(page!.length);
    expect(last.sources.reduce((sum, source) => sum + source.bytes, 0)).toBe(last.bytes.total);
    expect(finished[0]!.sources.some((source) => source.source === 'web_pages')).toBe(false);
    const stored = await open.assembled.journal.readResult(id!);
    expect(stored?.body).toContain('Version 2.0 adds **streaming**');
  });

  it('asks per domain, and "always" remembers web_fetch(domain:…) so the next fetch from it runs without asking', async () => {
    const base = await pageServer('127.0.0.1', { '/a': ARTICLE, '/b': '<html><body><p>Second page of text here.</p></body></html>' });
    const asked: ApprovalRequest[] = [];
    // What the host's Allowances does with an "always" answer: its key joins what runs without asking.
    const always = new Set<string>();
    const approver: Approver = {
      request: async (request): Promise<ApprovalDecision> => {
        asked.push(request);
        if (request.alwaysKey) always.add(request.alwaysKey);
        return { kind: 'allow_always' };
      },
    };
    open = await startScenarioSession(fetches(`${base}/a`, `${base}/b`), {
      web: fetcher({ allowPrivateAddresses: true }),
      approver,
      approvalsOf: () => ({ alwaysAllow: always, workspaceTrusted: true }),
    });
    expect(await open.assembled.session.send('read the page')).toBe('end_turn');
    expect(asked.map((request) => request.alwaysKey)).toEqual(['web_fetch(domain:127.0.0.1)']);
    expect(asked[0]!.detail?.arguments).toBe(JSON.stringify({ url: `${base}/a` }));
    expect(asked[0]!.detail?.allowance).toBe('fetches from 127.0.0.1');
  });

  it('in plan mode a page fetch keeps its own rule (the allowed domain runs, another asks), never refused as a change', async () => {
    const base = await pageServer('127.0.0.1', { '/a': ARTICLE });
    const asked: ApprovalRequest[] = [];
    const approver: Approver = {
      request: async (request): Promise<ApprovalDecision> => {
        asked.push(request);
        return { kind: 'deny' };
      },
    };
    open = await startScenarioSession(fetches(`${base}/a`, `http://localhost:${new URL(base).port}/a`), {
      web: fetcher({ allowPrivateAddresses: true }),
      approver,
      approvals: { ...allowLoopback(), mode: 'plan' },
    });
    expect(await open.assembled.session.send('read the page')).toBe('end_turn');
    const [page, other] = lastResults(open);
    expect(page).toContain('Title: Release notes');
    expect(asked.map((request) => request.alwaysKey)).toEqual(['web_fetch(domain:localhost)']);
    expect(other).not.toContain('plan mode');
  });

  it('refuses a loopback address without the allowance, saying which setting allows it', async () => {
    const base = await pageServer('127.0.0.1', { '/notes': ARTICLE });
    let served = 0;
    servers[0]!.on('request', () => served++);
    open = await startScenarioSession(fetches(`${base}/notes`, `http://localhost:${new URL(base).port}/notes`), {
      web: fetcher(),
      approvals: { alwaysAllow: new Set(['web_fetch']), workspaceTrusted: true },
    });
    expect(await open.assembled.session.send('read the page')).toBe('end_turn');
    const [literal, named] = lastResults(open);
    expect(literal).toContain('127.0.0.1 is a loopback address');
    expect(literal).toContain('cairn.webFetch.allowPrivateAddresses');
    expect(named).toMatch(/localhost resolves to an address web_fetch refuses: (127\.0\.0\.1|::1) is a loopback address/);
    expect(served).toBe(0);
  });

  it('checks every redirect again: a page that redirects to 127.0.0.1 is refused and the target is never asked', async () => {
    const inside = await pageServer('127.0.0.1', { '/secret': '<p>internal admin page</p>' });
    let reached = 0;
    servers[0]!.on('request', () => reached++);
    // 127.0.0.2 stands in for an address on the internet (the test's policy lets it alone through).
    const outside = await pageServer('127.0.0.2', {
      '/go': (res) => res.writeHead(302, { location: `${inside}/secret` }).end(),
    });
    const internetAt127002 = (address: string, allowPrivate: boolean) =>
      address === '127.0.0.2' || address === '::ffff:127.0.0.2' ? undefined : refusedAddressReason(address, allowPrivate);
    open = await startScenarioSession(fetches(`${outside}/go`), {
      web: fetcher({}, internetAt127002),
      approvals: allowLoopback('127.0.0.2'),
    });
    expect(await open.assembled.session.send('read the page')).toBe('end_turn');
    const [result] = lastResults(open);
    expect(result).toContain(`Could not fetch ${outside}/go: 127.0.0.1 is a loopback address`);
    expect(reached).toBe(0);
  });

  it('bounds size: a gzip bomb is read to the size bound only; an HTML bomb becomes plain text with a note', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 'a'));
    const nested = `<html><body>${'<div>'.repeat(200_000)}deep text${'</div>'.repeat(200_000)}</body></html>`;
    const base = await pageServer('127.0.0.1', {
      '/bomb': (res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(bomb),
      '/nested': nested,
    });
    open = await startScenarioSession(fetches(`${base}/bomb`, `${base}/nested`), {
      web: fetcher({ allowPrivateAddresses: true, maxBytes: 1024 * 1024 }),
      approvals: allowLoopback(),
    });
    expect(await open.assembled.session.send('read the page')).toBe('end_turn');
    const [gzip, deep] = lastResults(open);
    expect(gzip).toContain('1,048,576 bytes, cut at the size bound');
    expect(deep).toContain('Note: The page is too large to turn into Markdown (200,002 elements, nested 200,002 deep');
    expect(deep).toContain('deep text');
  });

  it('refuses what is not http(s) before anything leaves the machine', async () => {
    open = await startScenarioSession(fetches('file:///etc/passwd', 'http://user:pw@example.com/'), {
      web: fetcher(),
      approvals: { alwaysAllow: new Set(), workspaceTrusted: true },
    });
    expect(await open.assembled.session.send('read the page')).toBe('end_turn');
    const [file, credentials] = lastResults(open);
    expect(file).toContain('web_fetch fetches http and https URLs only, not file:.');
    expect(credentials).toContain('does not send credentials');
  });
});

import type { ExternalToolOutcome, ExternalTools } from '../ledger/types';
import type { ToolDefinition } from '../model/types';
import { checkWebUrl } from './webUrl';

export const WEB_FETCH_TOOL_NAME = 'web_fetch';

/** Fixed for the session like every tool definition (offered from the start when the session has a web source). */
export const WEB_FETCH_TOOL: ToolDefinition = {
  name: WEB_FETCH_TOOL_NAME,
  description:
    'Fetch a web page over http(s) and read it as Markdown (the main content of an HTML page; other text as it is). ' +
    'Each fetch is approved by the user per domain. Addresses on this machine or its private network are refused unless the user allowed them. ' +
    'The answer starts with the final URL (after redirects), the status and the size; long pages are capped like any output (recall the id for the rest). ' +
    'Fetching the same URL again with the same content answers "Same result as" the earlier result.',
  input_schema: {
    type: 'object',
    properties: { url: { type: 'string', description: 'The http:// or https:// URL to fetch.' } },
    required: ['url'],
    additionalProperties: false,
  },
};

/** A page as the web source read it: already bounded in size and turned into text. */
export interface FetchedPage {
  /** Where the text came from, after redirects. */
  readonly finalUrl: string;
  readonly status: number;
  readonly contentType: string;
  readonly title?: string;
  /** The page as Markdown (HTML) or as it was (other text). */
  readonly text: string;
  /** Bytes of the body read (after decompression), at most the size bound. */
  readonly bytes: number;
  /** The body was longer than the size bound: `text` is from its first part only. */
  readonly truncated: boolean;
  /** A note on how the text was made (the extractor gave up on the page and its plain text is shown). */
  readonly note?: string;
}

/**
 * Fetches pages (Node's is `src/node/web/nodeWebPageSource.ts`): checks every address it connects to, follows
 * redirects checking each again, bounds size and time. A refusal or failure rejects with an `Error` whose
 * message tells the model (and the user) what happened and what to do.
 */
export interface WebPageSource {
  fetchPage(url: URL, signal?: AbortSignal): Promise<FetchedPage>;
}

/** The `web_fetch` tool: a page's text through the ledger (an id, stored in full, capped, "Same result as" for the same page). */
export class WebFetchTool implements ExternalTools {
  constructor(private readonly source: WebPageSource) {}

  has(name: string): boolean {
    return name === WEB_FETCH_TOOL_NAME;
  }

  async run(_name: string, input: unknown, context: { readonly signal?: AbortSignal }): Promise<ExternalToolOutcome> {
    const checked = checkWebUrl(input);
    if (!checked.ok) return { text: checked.message, isError: true, sameResultDedupe: false };
    try {
      const page = await this.source.fetchPage(checked.url, context.signal);
      return { text: renderPage(checked.url, page), isError: false, sameResultDedupe: true };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { text: `Could not fetch ${checked.url.href}: ${message}`, isError: true, sameResultDedupe: false };
    }
  }
}

/** The header lines the model reads before the page, then the page. */
export function renderPage(asked: URL, page: FetchedPage): string {
  const lines = [`URL: ${page.finalUrl}${page.finalUrl !== asked.href ? ` (redirected from ${asked.href})` : ''}`];
  if (page.title) lines.push(`Title: ${page.title.replace(/\s+/g, ' ').trim()}`);
  const size = `${page.bytes.toLocaleString('en-US')} bytes${page.truncated ? ', cut at the size bound' : ''}`;
  lines.push(`Status: ${page.status} ${page.contentType || 'no content type'}, ${size}`);
  if (page.note) lines.push(`Note: ${page.note}`);
  return `${lines.join('\n')}\n\n${page.text}`;
}

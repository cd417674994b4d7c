import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { FetchedPage, WebPageSource } from '../../core/web/webFetchTool';
import { checkUrlText } from '../../core/web/webUrl';
import { isIpLiteral, refusedAddressReason } from './addressPolicy';
import { pageText } from './pageText';
import { WebFetchError } from './webFetchError';

export { WebFetchError } from './webFetchError';

/** `cairn.webFetch.*`: what a fetch may reach and how much it may take. */
export interface WebFetchSettings {
  /** Loopback, private and link-local addresses may be fetched (user settings only; default false). */
  readonly allowPrivateAddresses: boolean;
  /** Bytes of a body read at most, after decompression; the rest is not read (default 5 MB). */
  readonly maxBytes: number;
  /** Milliseconds one fetch may take from the first connection to the last byte, redirects included (default 30 s). */
  readonly timeoutMs: number;
  /** Redirects followed at most (default 5). */
  readonly maxRedirects: number;
}

export const DEFAULT_WEB_FETCH_SETTINGS: WebFetchSettings = {
  allowPrivateAddresses: false,
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 30_000,
  maxRedirects: 5,
};

/**
 * Fetches a page with Node's http(s). Every connection's address is checked (`addressPolicy.ts`): an IP literal
 * before connecting, a name's every DNS answer in the lookup the socket connects with (so the address checked is
 * the address used: no second lookup a rebinding name could answer differently), and the socket's remote address
 * once connected. Redirects are followed by hand, each checked again as a new URL. Bodies are read to
 * `maxBytes` after decompression (a gzip bomb stops there) within `timeoutMs` for the whole fetch.
 */
export class NodeWebPageSource implements WebPageSource {
  private readonly refusal: AddressPolicy;

  constructor(
    private readonly settings: () => WebFetchSettings = () => DEFAULT_WEB_FETCH_SETTINGS,
    /** Which addresses are refused; `refusedAddressReason` (a test names one loopback address as a stand-in for the internet). */
    refusal: AddressPolicy = refusedAddressReason,
  ) {
    this.refusal = refusal;
  }

  async fetchPage(url: URL, signal?: AbortSignal): Promise<FetchedPage> {
    const settings = this.settings();
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    const bounded = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let current = url;
    for (let redirects = 0; ; redirects++) {
      const response = await this.requestOnce(current, settings, bounded);
      const location = response.headers.location;
      if (response.statusCode !== undefined && response.statusCode >= 300 && response.statusCode < 400 && location) {
        response.destroy();
        if (redirects >= settings.maxRedirects) {
          throw new WebFetchError(`the page redirected more than ${settings.maxRedirects} times (last to ${location.slice(0, 200)}).`);
        }
        const next = checkUrlText(location, current);
        if (!next.ok) throw new WebFetchError(`it redirected to a URL Cairn does not fetch: ${next.message}`);
        current = next.url;
        continue;
      }
      const body = await readBounded(response, settings.maxBytes, bounded);
      const contentType = String(response.headers['content-type'] ?? '');
      const text = pageText(body.bytes, contentType, current.href);
      return {
        finalUrl: current.href,
        status: response.statusCode ?? 0,
        contentType,
        ...(text.title ? { title: text.title } : {}),
        text: text.text,
        bytes: body.bytes.length,
        truncated: body.truncated,
        ...(text.note ? { note: text.note } : {}),
      };
    }
  }

  private requestOnce(url: URL, settings: WebFetchSettings, signal: AbortSignal): Promise<IncomingMessage> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIpLiteral(host)) {
      // Node connects to a literal without a lookup: it is checked here.
      const refused = this.refusal(host, settings.allowPrivateAddresses);
      if (refused) return Promise.reject(new WebFetchError(refused));
    }
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const fail = (error: unknown): void => reject(asFetchError(error, signal, settings));
      const req = request(
        url,
        {
          method: 'GET',
          signal,
          headers: {
            'user-agent': 'Cairn-web_fetch (VS Code coding agent)',
            accept: 'text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,*/*;q=0.5',
            'accept-encoding': 'gzip, deflate, br',
          },
          lookup: (hostname, _options, callback) => checkedLookup(hostname, settings.allowPrivateAddresses, this.refusal, callback),
        },
        resolve,
      );
      req.on('socket', (socket: Socket) => {
        socket.once('connect', () => {
          const remote = socket.remoteAddress;
          const refused =
            remote === undefined ? 'the connection has no address to check.' : this.refusal(remote, settings.allowPrivateAddresses);
          if (refused) req.destroy(new WebFetchError(refused));
        });
      });
      req.on('error', fail);
      req.end();
    });
  }
}

/** Why an address may not be connected to, or undefined: `refusedAddressReason`'s shape. */
export type AddressPolicy = (address: string, allowPrivate: boolean) => string | undefined;

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Resolves `hostname` and refuses it when any of its addresses is refused (a name that also points inside is not fetched). */
function checkedLookup(hostname: string, allowPrivate: boolean, refusal: AddressPolicy, callback: LookupCallback): void {
  dnsLookup(hostname, { all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    for (const entry of addresses) {
      const refused = refusal(entry.address, allowPrivate);
      if (refused) return callback(new WebFetchError(`${hostname} resolves to an address web_fetch refuses: ${refused}`), []);
    }
    const first = addresses[0];
    if (!first) return callback(new WebFetchError(`${hostname} has no address.`), []);
    callback(null, [first]);
  });
}

/** The body, decompressed, up to `maxBytes`: reading stops there and the connection is closed. */
function readBounded(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<{ bytes: Buffer; truncated: boolean }> {
  const encoding = String(response.headers['content-encoding'] ?? 'identity')
    .toLowerCase()
    .trim();
  let stream: Readable = response;
  if (encoding === 'gzip' || encoding === 'x-gzip') stream = response.pipe(createGunzip());
  else if (encoding === 'deflate') stream = response.pipe(createInflate());
  else if (encoding === 'br') stream = response.pipe(createBrotliDecompress());
  else if (encoding !== 'identity' && encoding !== '') {
    response.destroy();
    return Promise.reject(new WebFetchError(`the server sent the body encoded as "${encoding}", which Cairn does not read.`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let done = false;
    const finish = (truncated: boolean): void => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      response.destroy();
      if (stream !== response) stream.destroy();
      resolve({ bytes: Buffer.concat(chunks, Math.min(length, maxBytes)).subarray(0, maxBytes), truncated });
    };
    const onAbort = (): void => {
      if (done) return;
      done = true;
      response.destroy();
      if (stream !== response) stream.destroy();
      reject(asFetchError(signal.reason, signal, undefined));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      chunks.push(chunk);
      length += chunk.length;
      if (length > maxBytes) finish(true);
    });
    stream.on('end', () => finish(false));
    stream.on('error', (error) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      reject(new WebFetchError(`the body could not be read: ${error.message}`));
    });
  });
}

function asFetchError(error: unknown, signal: AbortSignal, settings: WebFetchSettings | undefined): Error {
  if (error instanceof WebFetchError) return error;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof DOMException && reason.name === 'TimeoutError') {
      return new WebFetchError(
        `it took longer than ${settings ? `${settings.timeoutMs / 1000} s` : 'the time bound'} (cairn.webFetch.timeoutSeconds).`,
      );
    }
    return new WebFetchError('cancelled.');
  }
  // A refusal raised inside the lookup or the socket arrives wrapped or as itself.
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof WebFetchError) return cause;
  return new WebFetchError(error instanceof Error ? error.message : String(error));
}

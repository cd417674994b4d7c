/**
 * A local HTTP proxy that refuses everything and counts it: peers run with HTTP(S)_PROXY pointing here
 * and NO_PROXY naming the loopback address, so their model traffic reaches the local server and every
 * other outgoing connection (telemetry, update checks, plugin installs) is refused and reported.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RefusingProxy {
  readonly url: string;
  /** `host:port` (CONNECT) or URL of every refused attempt, in order. */
  readonly attempts: readonly string[];
  /** Proxy variables for a child process: everything through the proxy except the loopback address. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export async function startRefusingProxy(): Promise<RefusingProxy> {
  const attempts: string[] = [];
  const server: Server = createServer((request, response) => {
    attempts.push(request.url ?? '(no url)');
    response.writeHead(403, { 'content-type': 'text/plain' });
    response.end('refused by the benchmark: no outside connections\n');
  });
  server.on('connect', (request, socket) => {
    // A client that resets the refused tunnel is not an error of the benchmark.
    socket.on('error', () => undefined);
    attempts.push(request.url ?? '(no host)');
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    attempts,
    env: () => {
      const noProxy = '127.0.0.1,localhost,::1';
      return {
        HTTPS_PROXY: url,
        HTTP_PROXY: url,
        https_proxy: url,
        http_proxy: url,
        ALL_PROXY: url,
        all_proxy: url,
        NO_PROXY: noProxy,
        no_proxy: noProxy,
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

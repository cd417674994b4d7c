// The model for real-editor scenarios: the local Anthropic-compatible server playing a scenario file,
// its starting files written into the editor's workspace and its `fs` turns applied there, exactly as
// `npm run local-server -- --workspace DIR` does. Point the editor at it with `cairn.baseUrl: url`.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startLocalServer, type LocalServer } from '../../src/node/localServer/server';
import { applyFsOperation } from '../../src/node/scenario/fsOperation';
import { ScenarioPlayer } from '../../src/node/scenario/player';
import { loadScenario, writeWorkspaceFiles } from '../../src/node/scenario/scenario';

export interface ScenarioModel {
  url: string;
  server: LocalServer;
  close(): Promise<void>;
}

export async function startScenarioModel(options: {
  scenarioFile: string;
  workspaceDir: string;
  logFile?: string;
}): Promise<ScenarioModel> {
  const scenario = await loadScenario(options.scenarioFile);
  await writeWorkspaceFiles(scenario.workspace, options.workspaceDir);
  // 'server' driver: the test types the user's messages in the editor, so user turns are skipped.
  const player = new ScenarioPlayer(scenario, { driver: 'server' });
  const server = await startLocalServer({
    scenario,
    player,
    ...(options.logFile ? { logFile: options.logFile } : {}),
    onFs: (turn) => applyFsOperation(turn.operation, options.workspaceDir),
  });
  return { url: server.url, server, close: () => server.close() };
}

/**
 * A pass-through in front of the local server that remembers the API key each request carried, so a
 * test can prove which key the editor really sent (the local server accepts any).
 */
export interface KeyRecordingProxy {
  url: string;
  keys: readonly string[];
  close(): Promise<void>;
}

export async function startKeyRecordingProxy(targetUrl: string): Promise<KeyRecordingProxy> {
  const target = new URL(targetUrl);
  const keys: string[] = [];
  const server = createServer((req, res) => {
    // The SDK sends a key as `x-api-key` or as `Authorization: Bearer …` depending on its version.
    const key = req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer\s+/i, '');
    if (typeof key === 'string') keys.push(key);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      res.writeHead(502);
      res.end(String(err));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    keys,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A pass-through in front of the local server that can hold the model's answers: while `hold()` is on, each
 * `POST /v1/messages` waits (unsent upstream) until `release()`, so a test can change the editor's state while
 * a turn is certainly still running. `answered` counts the messages answers fully passed back.
 */
export interface GatedProxy {
  url: string;
  /** Requests now waiting. */
  readonly held: number;
  readonly answered: number;
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export async function startGatedProxy(targetUrl: string): Promise<GatedProxy> {
  const target = new URL(targetUrl);
  let holding = false;
  let waiting: (() => void)[] = [];
  let answered = 0;
  const server = createServer((req, res) => {
    const isMessages = req.method === 'POST' && /\/v1\/messages(\?|$)/.test(req.url ?? '');
    const forward = (): void => {
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          if (isMessages) answer.on('end', () => answered++);
        },
      );
      upstream.on('error', (err) => {
        res.writeHead(502);
        res.end(String(err));
      });
      req.pipe(upstream);
    };
    if (isMessages && holding) {
      req.pause();
      waiting.push(forward);
    } else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    get held() {
      return waiting.length;
    },
    get answered() {
      return answered;
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      const go = waiting;
      waiting = [];
      for (const forward of go) forward();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

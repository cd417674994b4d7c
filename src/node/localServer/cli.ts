/**
 * `npm run local-server -- --scenario FILE [--port N] [--workspace DIR] [--log FILE] [--min-cacheable N] [--bearer-token TOKEN]`
 *
 * Serves the scenario on 127.0.0.1 until interrupted. With `--workspace` the scenario's files are
 * written there first and its `fs` turns are applied there; without it `fs` turns are logged and
 * skipped. With `--bearer-token` it answers only requests carrying `Authorization: Bearer TOKEN` (a gateway's
 * auth; 401 otherwise). The first line on stdout is the URL (scripts read it).
 */
import { parseArgs } from 'node:util';
import { applyFsOperation, describeFsOperation } from '../scenario/fsOperation';
import { ScenarioPlayer } from '../scenario/player';
import { loadScenario, writeWorkspaceFiles } from '../scenario/scenario';
import { startLocalServer } from './server';

const USAGE =
  'usage: npm run local-server -- --scenario FILE [--port N] [--workspace DIR] [--log FILE] [--min-cacheable N] [--bearer-token TOKEN]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string' },
      port: { type: 'string' },
      workspace: { type: 'string' },
      log: { type: 'string' },
      'min-cacheable': { type: 'string' },
      'bearer-token': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.scenario) throw new Error(`--scenario is required\n${USAGE}`);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not "${values.port}"`);
  const minCacheable = values['min-cacheable'] === undefined ? undefined : Number(values['min-cacheable']);
  if (minCacheable !== undefined && !(Number.isInteger(minCacheable) && minCacheable >= 0)) {
    throw new Error(`--min-cacheable must be a whole number of tokens, not "${values['min-cacheable']}"`);
  }

  const scenario = await loadScenario(values.scenario);
  const workspace = values.workspace;
  if (workspace) await writeWorkspaceFiles(scenario.workspace, workspace);
  const player = new ScenarioPlayer(scenario, { driver: 'server', onNotice: (message) => console.error(`[local-server] ${message}`) });
  const server = await startLocalServer({
    scenario,
    player,
    port,
    ...(values.log ? { logFile: values.log } : {}),
    ...(values['bearer-token'] ? { bearerToken: values['bearer-token'] } : {}),
    ...(minCacheable !== undefined ? { minCacheableTokens: minCacheable } : {}),
    ...(workspace
      ? {
          onFs: async (turn) => {
            await applyFsOperation(turn.operation, workspace);
            console.error(`[local-server] turn ${turn.index}: ${describeFsOperation(turn.operation)}`);
          },
        }
      : {}),
  });
  console.log(server.url);
  console.error(
    `[local-server] serving ${scenario.source} (${scenario.turns.length} turns) at ${server.url}; ` +
      `set ANTHROPIC_BASE_URL=${server.url} (${values['bearer-token'] ? 'the bearer token given, as ANTHROPIC_AUTH_TOKEN' : 'any API key'}). Ctrl-C stops.`,
  );
  const stop = (): void => {
    void server.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`local-server: ${(error as Error).message}`);
  process.exit(1);
});

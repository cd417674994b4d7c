// The model for real-editor scenarios: the local Anthropic-compatible server playing a scenario file,
// its starting files written into the editor's workspace and its `fs` turns applied there, exactly as
// `npm run mock-server -- --workspace DIR` does. Point the editor at it with `cairn.baseUrl: url`.
import { startMockServer, type MockServer } from '../../src/node/mockServer/server';
import { applyFsOperation } from '../../src/node/scenario/fsOperation';
import { ScenarioPlayer } from '../../src/node/scenario/player';
import { loadScenario, writeWorkspaceFiles } from '../../src/node/scenario/scenario';

export interface ScenarioModel {
  url: string;
  server: MockServer;
  close(): Promise<void>;
}

export async function startScenarioModel(options: { scenarioFile: string; workspaceDir: string; logFile?: string }): Promise<ScenarioModel> {
  const scenario = await loadScenario(options.scenarioFile);
  await writeWorkspaceFiles(scenario.workspace, options.workspaceDir);
  // 'server' driver: the test types the user's messages in the editor, so user turns are skipped.
  const player = new ScenarioPlayer(scenario, { driver: 'server' });
  const server = await startMockServer({
    scenario,
    player,
    ...(options.logFile ? { logFile: options.logFile } : {}),
    onFs: (turn) => applyFsOperation(turn.operation, options.workspaceDir),
  });
  return { url: server.url, server, close: () => server.close() };
}

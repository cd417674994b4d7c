// The command line that serves one workspace from the provisioned code-server, shared by `npm start`
// (scripts/start.mjs) and the real-editor tests (test/e2e/harness.ts) so both run the editor the same way.
import { join } from 'node:path';

/**
 * @param {{ codeServerBin: string, configDir: string, port: number, userDataDir: string, extensionsDir: string, workspace: string }} o
 * @returns {string[]} the arguments after the Node binary
 */
export function codeServerServeArgs(o) {
  return [
    o.codeServerBin,
    // Its own config file, so the user's ~/.config/code-server is neither read nor written.
    '--config',
    join(o.configDir, 'config.yaml'),
    // Bound to loopback only: no password is needed because nothing off this machine can reach it.
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${o.port}`,
    '--user-data-dir',
    o.userDataDir,
    '--extensions-dir',
    o.extensionsDir,
    '--disable-workspace-trust',
    '--disable-telemetry',
    '--disable-update-check',
    o.workspace,
  ];
}

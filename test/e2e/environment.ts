// What the real-editor suite needs from the machine (a provisioned code-server, Chromium, the packaged
// extension) and the one decision about a machine that lacks them: under CI=true the suite fails and
// says why; locally it skips, loudly, with the same reason.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
export const OUTPUT_DIR = join(REPO_ROOT, 'test-output', 'e2e');
export const CHROMIUM_PATH = process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium';
export const CAIRN_VSIX = join(REPO_ROOT, 'out', 'cairn.vsix');
export const PROBE_VSIX = join(REPO_ROOT, 'out', 'cairn-e2e-probe.vsix');
const PROBE_DIR = join(REPO_ROOT, 'test', 'e2e', 'probe-extension');

/** A code-server that scripts/provision-editor.mjs installed (the shape its `--json` prints). */
export interface ProvisionedEditor {
  version: string;
  root: string;
  codeServerBin: string;
  nodeBin: string;
  fromCache: boolean;
}

export type E2eEnvironment =
  | { available: true; editor: ProvisionedEditor; chromium: string; cairnVsix: string; probeVsix: string }
  | { available: false; reason: string };

export class E2eSetupError extends Error {
  override name = 'E2eSetupError';
}

function runNode(script: string, args: string[], cwd = REPO_ROOT): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [script, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

function tail(text: string, lines = 30): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}

/** Provisions (or finds cached) code-server; throws E2eSetupError with the provisioner's own words. */
export function provisionEditor(): ProvisionedEditor {
  const r = runNode(join(REPO_ROOT, 'scripts', 'provision-editor.mjs'), ['--json']);
  process.stderr.write(r.stderr);
  const line = r.stdout.trim().split('\n').pop();
  if (r.status !== 0 || !line) {
    throw new E2eSetupError(`provisioning code-server failed:\n${tail(r.stderr)}`);
  }
  return JSON.parse(line) as ProvisionedEditor;
}

/** Builds and packages Cairn, and packages the test-only probe extension. */
export function packageExtensions(): { cairnVsix: string; probeVsix: string } {
  // CAIRN_E2E_VSIX runs the suite against a .vsix built elsewhere (a release candidate, a patched build).
  const given = process.env.CAIRN_E2E_VSIX;
  if (given && !existsSync(given)) throw new E2eSetupError(`CAIRN_E2E_VSIX=${given} does not exist`);
  if (!given) {
    const cairn = runNode(join(REPO_ROOT, 'scripts', 'package-vsix.mjs'), ['--out', CAIRN_VSIX]);
    if (cairn.status !== 0) throw new E2eSetupError(`packaging Cairn failed:\n${tail(cairn.stderr)}`);
  }
  const vsce = join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const probe = runNode(
    vsce,
    ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', PROBE_VSIX],
    PROBE_DIR,
  );
  if (probe.status !== 0) throw new E2eSetupError(`packaging the e2e probe failed:\n${tail(probe.stdout + probe.stderr)}`);
  return { cairnVsix: given ? resolve(given) : CAIRN_VSIX, probeVsix: PROBE_VSIX };
}

/** Everything the suite needs, or the reason it cannot run here. Does the slow work once per run. */
export function prepareE2eEnvironment(): E2eEnvironment {
  if (!existsSync(CHROMIUM_PATH)) {
    return {
      available: false,
      reason: `Chromium not found at ${CHROMIUM_PATH}: run \`bash scripts/install-system-deps.sh\` (Debian package chromium) or set CAIRN_CHROMIUM.`,
    };
  }
  try {
    const editor = provisionEditor();
    const { cairnVsix, probeVsix } = packageExtensions();
    return { available: true, editor, chromium: CHROMIUM_PATH, cairnVsix, probeVsix };
  } catch (err) {
    if (err instanceof E2eSetupError) return { available: false, reason: err.message };
    throw err;
  }
}

export function isCi(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

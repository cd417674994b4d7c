// Runs Cairn's Extension Development Host suite in a real desktop VS Code via @vscode/test-electron,
// on machines that have one. Nothing is downloaded (these machines cannot): the VS Code is the one
// named by CAIRN_VSCODE_EXECUTABLE, a build test-electron cached earlier in .vscode-test/, or a
// usual install location. Where none is found it says so and stands aside (exit 0); the code-server
// suite (test/e2e/*.e2e.test.ts) is the one that must pass here.
//
// Usage: node --import tsx test/e2e/electron/run.ts
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { runTests } from '@vscode/test-electron';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');

/** Electron executables of desktop VS Code in its usual install places, per platform. */
const KNOWN_LOCATIONS: Record<string, string[]> = {
  linux: [
    '/usr/share/code/code',
    '/usr/share/code-insiders/code-insiders',
    '/snap/code/current/usr/share/code/code',
    '/opt/visual-studio-code/code',
  ],
  darwin: ['/Applications/Visual Studio Code.app/Contents/MacOS/Electron', '/Applications/Visual Studio Code.app/Contents/MacOS/Code'],
  win32: [join(process.env.LOCALAPPDATA ?? 'C:\\', 'Programs', 'Microsoft VS Code', 'Code.exe')],
};

/** A build that test-electron downloaded on another run and left in .vscode-test/. */
function cachedBuild(): string | undefined {
  const dir = join(REPO_ROOT, '.vscode-test');
  if (!existsSync(dir)) return undefined;
  for (const entry of readdirSync(dir)
    .filter((e) => e.startsWith('vscode-'))
    .sort()
    .reverse()) {
    for (const exe of [
      'code',
      'Code.exe',
      join('VSCode-linux-x64', 'code'),
      join('Visual Studio Code.app', 'Contents', 'MacOS', 'Electron'),
    ]) {
      const candidate = join(dir, entry, exe);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** `code` on PATH is a launcher script; the Electron binary sits one folder up from its bin/. */
function fromCodeOnPath(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' });
  if (r.status !== 0) return undefined;
  const launcher = realpathSync(r.stdout.trim());
  const candidate = join(dirname(dirname(launcher)), process.platform === 'win32' ? 'Code.exe' : 'code');
  return existsSync(candidate) ? candidate : undefined;
}

export function findVsCodeExecutable(): { path: string; source: string } | undefined {
  const fromEnv = process.env.CAIRN_VSCODE_EXECUTABLE;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CAIRN_VSCODE_EXECUTABLE=${fromEnv} does not exist`);
    return { path: fromEnv, source: 'CAIRN_VSCODE_EXECUTABLE' };
  }
  const cached = cachedBuild();
  if (cached) return { path: cached, source: '.vscode-test cache' };
  const onPath = fromCodeOnPath();
  if (onPath) return { path: onPath, source: '`code` on PATH' };
  const known = (KNOWN_LOCATIONS[process.platform] ?? []).find((p) => existsSync(p));
  return known ? { path: known, source: 'install location' } : undefined;
}

async function main(): Promise<void> {
  const vscode = findVsCodeExecutable();
  if (!vscode) {
    console.log(
      '[electron] no desktop VS Code here (set CAIRN_VSCODE_EXECUTABLE, or install VS Code); standing aside. ' +
        'The code-server suite (vitest --config test/e2e/vitest.config.ts) is the real-editor suite that runs here.',
    );
    return;
  }
  console.log(`[electron] VS Code from ${vscode.source}: ${vscode.path}`);
  if (spawnSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' }).status !== 0) {
    throw new Error('npm run build failed');
  }
  const scratch = mkdtempSync(join(tmpdir(), 'cairn-electron-'));
  try {
    const workspace = join(scratch, 'workspace');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'README.md'), '# scratch workspace\n');
    await runTests({
      vscodeExecutablePath: vscode.path,
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: join(import.meta.dirname, 'suite', 'index.cjs'),
      launchArgs: [
        workspace,
        '--disable-workspace-trust',
        '--user-data-dir',
        join(scratch, 'user-data'),
        '--skip-welcome',
        '--skip-release-notes',
      ],
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main().catch((err: unknown) => {
    console.error(`[electron] FAILED: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}

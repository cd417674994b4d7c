/**
 * Whether a command reaches beyond what the sandbox holds, read from its text before it runs, for the `auto`
 * permission mode (issue 32 §1: "what the sandbox cannot hold — it needs the network, or a path outside it —
 * asks"). The sandbox itself is what confines the command (`src/node/workspace/commandSandbox.ts`); this only
 * decides whether to ask first, so the user sees a command that would fail in the sandbox (or that goes where
 * the sandbox does not guard) before it runs. It reads words, not a shell: a command that hides what it does
 * (`$(printf …)`, `eval`) is still confined by the sandbox, and a command whose words name a protected path
 * asks, since the sandbox keeps the workspace writable, `.git` and `.vscode` included.
 */
import type { CommandSandboxState } from '../ports';
import { protectedPathReason } from './protectedPaths';

/** Programs that exist to reach the network. */
const NETWORK_PROGRAMS = new Set([
  'curl',
  'wget',
  'ssh',
  'scp',
  'sftp',
  'ftp',
  'nc',
  'ncat',
  'netcat',
  'telnet',
  'ping',
  'dig',
  'nslookup',
  'http',
  'https',
  'aria2c',
]);

/** `program subcommand` pairs that fetch or publish (package managers, git's remote commands). */
const NETWORK_SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  git: ['clone', 'fetch', 'pull', 'push', 'ls-remote', 'submodule'],
  npm: ['install', 'i', 'ci', 'add', 'update', 'publish', 'exec', 'view', 'outdated', 'audit'],
  pnpm: ['install', 'i', 'add', 'update', 'publish', 'dlx'],
  yarn: ['install', 'add', 'upgrade', 'publish', 'dlx'],
  pip: ['install', 'download'],
  pip3: ['install', 'download'],
  uv: ['pip', 'add', 'sync'],
  cargo: ['install', 'fetch', 'publish', 'update', 'add'],
  go: ['get', 'install', 'mod'],
  gem: ['install', 'fetch', 'push'],
  bundle: ['install', 'update'],
  composer: ['install', 'require', 'update'],
  docker: ['pull', 'push', 'login'],
  apt: ['install', 'update'],
  'apt-get': ['install', 'update'],
  brew: ['install', 'update', 'upgrade'],
};

/** Programs that run a package they may first download (`npx cowsay`). */
const FETCH_AND_RUN = new Set(['npx', 'bunx', 'pipx', 'uvx']);

/** Programs whose path arguments they write. */
const WRITERS = new Set([
  'cp',
  'mv',
  'rm',
  'mkdir',
  'rmdir',
  'touch',
  'ln',
  'chmod',
  'chown',
  'tee',
  'install',
  'rsync',
  'dd',
  'truncate',
  'unzip',
  'tar',
]);

/**
 * Why `command` should ask in `auto` (a sentence for the approval prompt), or undefined when the sandbox holds
 * it and it may run without asking.
 */
export function commandBeyondSandbox(command: string, sandbox: CommandSandboxState | undefined): string | undefined {
  if (!sandbox || !sandbox.sandboxAvailable) {
    const why = sandbox && !sandbox.sandboxAvailable ? sandbox.reason : 'this workspace runs no sandbox';
    return `auto mode runs only sandboxed commands without asking, and there is no sandbox here (${why})`;
  }
  const segments = commandSegments(command);
  for (const words of segments) {
    for (const word of words) {
      const reason = protectedPathReason(word.replace(/^[<>]+/, ''));
      if (reason)
        return `the command names a protected path (it ${reason}); the sandbox keeps the workspace writable, so it asks in every mode`;
    }
  }
  if (!sandbox.network) {
    const network = segments.find(needsNetwork);
    if (network) {
      return `the command looks like it needs the network (${network.slice(0, 2).join(' ')}), which the sandbox withholds; approving it runs it in the sandbox all the same (the user allows the network with "cairn.sandboxNetwork": true)`;
    }
  }
  const outside = segments.flatMap((words) => writtenPaths(words)).find((path) => !insideAny(path, sandbox.writable));
  if (outside !== undefined) {
    return `the command writes ${outside}, outside the folders the sandbox lets commands write (the workspace and the toolchains' caches), where it would fail`;
  }
  return undefined;
}

/** The simple commands of a command line, each as its words (quotes removed; `env X=1` and `sudo` skipped). */
function commandSegments(command: string): string[][] {
  return command
    .split(/&&|\|\||[;|&\n()`]|\$\(/)
    .map((segment) => (segment.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((word) => word.replace(/^(["'])(.*)\1$/, '$2')))
    .map((words) => {
      let start = 0;
      while (
        start < words.length &&
        (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[start]!) || ['env', 'sudo', 'time', 'nohup', 'exec'].includes(words[start]!))
      )
        start++;
      return words.slice(start);
    })
    .filter((words) => words.length > 0);
}

function programName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

function needsNetwork(words: readonly string[]): boolean {
  const program = programName(words[0]!);
  if (NETWORK_PROGRAMS.has(program) || FETCH_AND_RUN.has(program)) return true;
  const subcommands = NETWORK_SUBCOMMANDS[program];
  if (!subcommands) return false;
  const sub = words.slice(1).find((w) => !w.startsWith('-'));
  return sub !== undefined && subcommands.includes(sub);
}

/** Absolute (or `~`) paths the words write: redirect targets, and the path arguments of a writing program. */
function writtenPaths(words: readonly string[]): string[] {
  const paths: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const redirect = /^\d*>>?(.*)$/.exec(word);
    if (redirect) {
      const target = redirect[1] !== '' ? redirect[1]! : words[i + 1];
      if (target !== undefined && isAbsoluteLike(target)) paths.push(target);
    }
  }
  if (WRITERS.has(programName(words[0]!))) {
    for (const word of words.slice(1)) {
      const path = word.startsWith('of=') ? word.slice(3) : word;
      if (isAbsoluteLike(path)) paths.push(path);
    }
  }
  // Writing to the null device or a terminal is no write outside.
  return paths.filter((p) => !/^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/.test(p) && !p.startsWith('/tmp/') && p !== '/tmp');
}

function isAbsoluteLike(path: string): boolean {
  return path.startsWith('/') || path === '~' || path.startsWith('~/') || /^[A-Za-z]:[\\/]/.test(path);
}

function insideAny(path: string, folders: readonly string[]): boolean {
  if (path.startsWith('~')) return false;
  const normal = path.replace(/\\/g, '/').replace(/\/+$/, '');
  if (normal.split('/').includes('..')) return false;
  return folders.some((folder) => {
    const base = folder.replace(/\\/g, '/').replace(/\/+$/, '');
    return normal === base || normal.startsWith(`${base}/`);
  });
}

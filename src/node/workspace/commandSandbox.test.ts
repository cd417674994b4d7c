import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bwrapArguments } from './commandSandbox';
import { NodeWorkspace } from './nodeWorkspace';
import type { SandboxSettings } from './sandboxPolicy';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';

/**
 * Issue 32 §2 on the real bubblewrap (scripts/install-system-deps.sh installs it): what a command the model
 * runs cannot do, and that a build and a test run in the workspace still work. "Outside the workspace" is a
 * folder in /var/tmp: the command's /tmp is its own, so a folder in the machine's /tmp is not even there.
 * The credentials are a fake home folder's, given to the workspace as its home.
 */
let tree: TestTree;
let outside: string;
let home: string;
const servers: Server[] = [];

/** cargo on PATH (this machine has it; CI may not). */
function hasCargo(): boolean {
  return spawnSync('cargo', ['--version'], { encoding: 'utf8' }).status === 0;
}

function workspace(settings: Partial<SandboxSettings> = {}): NodeWorkspace {
  return new NodeWorkspace(tree.root, { sandbox: { settings: () => ({ mode: 'auto', network: false, ...settings }), home } });
}

function run(ws: NodeWorkspace, command: string): ReturnType<NodeWorkspace['exec']> {
  return ws.exec(command, { timeoutMs: 60_000 });
}

beforeEach(() => {
  tree = makeTestTree({ 'hello.txt': 'hi\n' });
  outside = realpathSync(mkdtempSync('/var/tmp/cairn-outside-'));
  home = realpathSync(mkdtempSync('/var/tmp/cairn-home-'));
  mkdirSync(nodePath.join(home, '.ssh'));
  writeFileSync(nodePath.join(home, '.ssh', 'id_ed25519'), 'PRIVATE-KEY-0123456789\n');
  writeFileSync(nodePath.join(home, '.netrc'), 'machine example.com password NETRC-SECRET\n');
  mkdirSync(nodePath.join(home, '.aws'));
  writeFileSync(nodePath.join(home, '.aws', 'credentials'), 'aws_secret_access_key = AWS-SECRET\n');
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  tree.remove();
  rmSync(outside, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('a command in the sandbox', () => {
  it('writes in the workspace, but not outside it: the write fails and the result says the sandbox denied it', async () => {
    const result = await run(workspace(), `echo made > made.txt && touch ${outside}/planted`);
    expect(readFileSync(nodePath.join(tree.root, 'made.txt'), 'utf8')).toBe('made\n');
    expect(existsSync(nodePath.join(outside, 'planted'))).toBe(false);
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain('Read-only file system');
    expect(result.output).toContain(`[Cairn sandbox] The sandbox denied writing outside the workspace (${outside}/planted)`);
    expect(result.output).toContain('"cairn.sandbox": "off"');
  });

  it("has a /tmp of its own: what it writes there is not in the machine's /tmp", async () => {
    const name = `cairn-private-${process.pid}-${Date.now()}`;
    const result = await run(workspace(), `echo x > /tmp/${name} && cat /tmp/${name}`);
    expect(result).toMatchObject({ output: 'x\n', exitCode: 0 });
    expect(existsSync(`/tmp/${name}`)).toBe(false);
  });

  it('cannot read the credentials folders and files, and the result names what was hidden', async () => {
    const result = await run(workspace(), `cat ${home}/.ssh/id_ed25519; cat ${home}/.netrc; cat ${home}/.aws/credentials; ls ${home}/.ssh`);
    expect(result.output).not.toContain('PRIVATE-KEY');
    expect(result.output).not.toContain('NETRC-SECRET');
    expect(result.output).not.toContain('AWS-SECRET');
    expect(result.output).toContain('Permission denied');
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain('[Cairn sandbox] The sandbox denied reading ~/.ssh');
  });

  it('hides a credentials folder even inside a workspace (the home folder opened as the workspace)', async () => {
    const ws = new NodeWorkspace(home, { sandbox: { settings: () => ({ mode: 'auto', network: false }), home } });
    const result = await ws.exec('cat .ssh/id_ed25519; echo written > notes.txt && cat notes.txt', { timeoutMs: 60_000 });
    expect(result.output).not.toContain('PRIVATE-KEY');
    expect(result.output).toContain('written');
  });

  it('cannot reach a TCP listener on this machine: it stays unconnected, and the result says why', async () => {
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.end();
    });
    servers.push(server);
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
    );
    const result = await run(workspace(), `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`);
    expect(result.output).not.toContain('connected\n');
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain('[Cairn sandbox] The sandbox denied the network');
    expect(result.output).toContain('"cairn.sandboxNetwork": true');
    expect(connections).toBe(0);

    // With the network allowed (a user setting), the same command connects.
    const allowed = await run(workspace({ network: true }), `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`);
    expect(allowed.output).toBe('connected\n');
  });

  it("cannot drive the system's services through their sockets (the system D-Bus and the like), network cut or not", async () => {
    // A stand-in for /run: a folder holding a service's Unix socket a level down, as /run/dbus/system_bus_socket.
    const run = realpathSync(mkdtempSync('/var/tmp/cairn-run-'));
    mkdirSync(nodePath.join(run, 'dbus'));
    const path = nodePath.join(run, 'dbus', 'system_bus_socket');
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.end();
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(path, resolve));
    const connect = `${process.execPath} -e "require('net').connect('${path}').on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(1); })"`;
    try {
      // Not covered (a runtime folder the sandbox is not told of): the socket answers, even with the network cut.
      const open = new NodeWorkspace(tree.root, {
        sandbox: { settings: () => ({ mode: 'auto', network: false }), home, systemRunDirs: [] },
      });
      expect((await open.exec(connect, { timeoutMs: 60_000 })).output).toBe('connected\n');
      expect(connections).toBe(1);
      for (const network of [false, true]) {
        const ws = new NodeWorkspace(tree.root, { sandbox: { settings: () => ({ mode: 'auto', network }), home, systemRunDirs: [run] } });
        const result = await ws.exec(connect, { timeoutMs: 60_000 });
        expect(result.output).not.toContain('connected');
        expect(result.exitCode).not.toBe(0);
      }
      expect(connections).toBe(1);
    } finally {
      rmSync(run, { recursive: true, force: true });
    }
  });

  it('builds with make and a C compiler inside the workspace', async () => {
    tree.write({
      'hello.c': '#include <stdio.h>\nint main(void) { puts("built and ran"); return 0; }\n',
      Makefile: 'hello: hello.c\n\tcc -o hello hello.c\n',
    });
    const result = await run(workspace(), 'make && ./hello');
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain('built and ran');
    expect(result.output).not.toContain('[Cairn sandbox]');
  });

  it("runs a package's tests with npm inside the workspace (the user's real home, its caches as they are)", async () => {
    tree.write({
      'package.json': JSON.stringify({ name: 'tiny', version: '1.0.0', scripts: { test: 'node test.js' } }),
      'test.js': "require('fs').writeFileSync('result.txt', 'ok'); console.log('1 passing');\n",
    });
    const ws = new NodeWorkspace(tree.root, { sandbox: { settings: () => ({ mode: 'auto', network: false }) } });
    const result = await ws.exec('npm test', { timeoutMs: 120_000 });
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain('1 passing');
    expect(readFileSync(nodePath.join(tree.root, 'result.txt'), 'utf8')).toBe('ok');
  });

  it.skipIf(!hasCargo())(
    'builds a crate with cargo inside the workspace (~/.cargo read-only, no network)',
    async () => {
      tree.write({
        'Cargo.toml': '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n',
        'src/main.rs': 'fn main() { println!("cargo built and ran"); }\n',
      });
      const ws = new NodeWorkspace(tree.root, { sandbox: { settings: () => ({ mode: 'auto', network: false }) } });
      const result = await ws.exec('cargo build --quiet && ./target/debug/tiny', { timeoutMs: 240_000 });
      expect(result.output).toContain('cargo built and ran');
      expect(result.exitCode).toBe(0);
    },
    300_000,
  );

  it("cannot change git's hooks or config, .vscode, .cairn or .claude, even spelled past the gate; git still commits", async () => {
    const git = (...args: string[]) => spawnSync('git', args, { cwd: tree.root, encoding: 'utf8' });
    expect(git('init', '-q').status).toBe(0);
    for (const folder of ['.vscode', '.cairn', '.claude']) mkdirSync(nodePath.join(tree.root, folder));
    writeFileSync(nodePath.join(tree.root, '.vscode', 'settings.json'), '{}\n');
    writeFileSync(nodePath.join(tree.root, 'app.code-workspace'), '{}\n');
    const config = readFileSync(nodePath.join(tree.root, '.git', 'config'), 'utf8');
    const attempts = [
      `cd .g''it/hooks && printf '#!/bin/sh\\ntouch ${outside}/ran\\n' > pre-commit && chmod +x pre-commit`,
      `printf '[core]\\n\\thooksPath = /var/tmp\\n' >> .g''it/config`,
      `echo '{"tasks":[]}' > .vs''code/tasks.json`,
      `echo '{}' > .vs''code/settings.json`,
      `echo x > .ca''irn/hooks.json`,
      `echo x > .cla''ude/settings.json`,
      `echo x > app.code-workspace`,
    ];
    for (const attempt of attempts) {
      const result = await run(workspace(), attempt);
      expect(result.exitCode, attempt).not.toBe(0);
      expect(result.output, attempt).toContain('Read-only file system');
      expect(result.output, attempt).toContain('stay read-only: they run code outside the sandbox');
    }
    expect(existsSync(nodePath.join(tree.root, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(nodePath.join(tree.root, '.git', 'config'), 'utf8')).toBe(config);
    expect(existsSync(nodePath.join(tree.root, '.vscode', 'tasks.json'))).toBe(false);
    expect(readFileSync(nodePath.join(tree.root, '.vscode', 'settings.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(nodePath.join(tree.root, 'app.code-workspace'), 'utf8')).toBe('{}\n');
    // The rest of .git stays writable: a commit made in the sandbox lands.
    const commit = await run(
      workspace(),
      'git add hello.txt && git -c user.name=t -c user.email=t@e commit -qm one && git log --oneline | wc -l',
    );
    expect(commit).toMatchObject({ exitCode: 0, output: '1\n' });
  });

  it('with cairn.sandbox "off", only the PID namespace: a write outside succeeds', async () => {
    const result = await run(workspace({ mode: 'off' }), `touch ${outside}/planted && echo done`);
    expect(result).toMatchObject({ output: 'done\n', exitCode: 0 });
    expect(existsSync(nodePath.join(outside, 'planted'))).toBe(true);
  });

  it('answers what it holds, for the permission modes', async () => {
    expect(await workspace().commandSandbox()).toEqual({ sandboxAvailable: true, network: false, writable: [tree.root] });
    expect(await workspace({ network: true }).commandSandbox()).toMatchObject({ sandboxAvailable: true, network: true });
    expect(await workspace({ mode: 'off' }).commandSandbox()).toEqual({
      sandboxAvailable: false,
      reason: expect.stringContaining('cairn.sandbox is "off"'),
    });
    const none = new NodeWorkspace(tree.root, { isolation: async () => ({ kind: 'none', reason: 'bubblewrap is not installed' }) });
    expect(await none.commandSandbox()).toEqual({ sandboxAvailable: false, reason: 'bubblewrap is not installed' });
  });
});

describe("bubblewrap's arguments", () => {
  it('mount the writable folders over the read-only root, then cover the hidden ones, and cut the network', () => {
    const args = bwrapArguments(
      {
        cwd: '/w',
        confine: {
          writable: ['/w', '/h/.npm'],
          readOnly: ['/h/.npm/_npx'],
          hidden: [
            { path: '/w/.ssh', kind: 'folder' },
            { path: '/h/.netrc', kind: 'file' },
          ],
          network: false,
        },
      },
      ['bash', '-c', 'true'],
    ).join(' ');
    expect(args).toBe(
      '--ro-bind / / --dev /dev --tmpfs /tmp --bind /w /w --bind /h/.npm /h/.npm --ro-bind /h/.npm/_npx /h/.npm/_npx ' +
        '--perms 0000 --tmpfs /w/.ssh --ro-bind /dev/null /h/.netrc --unshare-net ' +
        '--unshare-pid --proc /proc --cap-drop ALL --chdir /w -- bash -c true',
    );
  });
});

/**
 * A stand-in for the editor's extension host, for the key-reach test: it holds one key from its
 * environment (ANTHROPIC_API_KEY, set when it started: `/proc/PID/environ` shows it) and one read from
 * stdin (the SecretStorage path: in memory only), both live in its heap. It runs the memory scanner
 * (`processMemoryScan.mjs`) twice on itself: once as a command through the real runner (`NodeWorkspace.exec`,
 * aiming at `$PPID` as a hostile command would), and once as its own direct child (the control: it shows
 * the scanner finds the keys where nothing hides them). Prints one JSON line: `{ command, control, holder, holding }`.
 *
 *   node --import tsx keyHolder.ts WORKSPACE SPEC.json < memory-key
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { NodeWorkspace } from '../../../src/node/workspace/nodeWorkspace';

const [workspace, specFile] = process.argv.slice(2) as [string, string];
const scanner = nodePath.join(__dirname, 'processMemoryScan.mjs');
// Kept reachable until the end, as the model client keeps the key it sends.
const held = { fromStdin: readFileSync(0, 'utf8').trim(), fromEnvironment: process.env.ANTHROPIC_API_KEY ?? '' };

function quoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

async function main(): Promise<void> {
  // The scanner also says whether this process is visible at all (by its pid outside any namespace).
  writeFileSync(specFile, JSON.stringify({ ...JSON.parse(readFileSync(specFile, 'utf8')), watch: [process.pid] }));
  // As a hostile command would, it first tries to take away the namespace's /proc (root could, with capabilities).
  const command = `umount -l /proc 2>/dev/null; ${quoted(process.execPath)} ${quoted(scanner)} "$PPID" ${quoted(specFile)}`;
  const result = await new NodeWorkspace(workspace).exec(command, {
    timeoutMs: 120_000,
  });
  const control = spawnSync(process.execPath, [scanner, String(process.pid), specFile], { encoding: 'utf8' });
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return { unreadable: text.slice(0, 2000) };
    }
  };
  console.log(
    JSON.stringify({
      command: { exitCode: result.exitCode, scan: parse(result.output) },
      control: { exitCode: control.status, scan: parse(control.stdout), stderr: control.stderr.slice(0, 2000) },
      holder: process.pid,
      holding: held.fromStdin.length + held.fromEnvironment.length,
    }),
  );
}

void main();

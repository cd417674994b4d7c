import { spawnSync } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

/**
 * Issue 28, case 15: the key held in the editor's memory (the SecretStorage path) and a key in its
 * environment must be out of reach of the commands the model runs. A stand-in for the extension host
 * (`test/support/workspace/keyHolder.ts`, a real Node process holding both keys) runs a real command
 * through the real runner; the command reads `/proc/$PPID/environ` and every readable region of
 * `/proc/$PPID/mem`, and checks whether the holder's own pid is visible at all. A control run of the same
 * scanner from outside the runner shows it finds both keys where nothing hides them.
 *
 * Linux only (elsewhere there is no /proc to read). It needs bubblewrap (`scripts/install-system-deps.sh`
 * installs it): without it commands are not isolated, and this test fails saying so.
 */
const MEMORY_KEY = `sk-ant-api03-memory-canary-${'4'.repeat(12)}-${process.pid}-AA`;
const ENV_KEY = `sk-ant-api03-environ-canary-${'9'.repeat(12)}-${process.pid}-AA`;

/** The kernel's ptrace restriction: 0 when there is none (no Yama, as on CI). */
function yamaScope(): number {
  try {
    return Number(readFileSync('/proc/sys/kernel/yama/ptrace_scope', 'utf8').trim());
  } catch {
    return 0;
  }
}

interface Scan {
  readonly pid: number;
  readonly environ: { readonly read: boolean; readonly bytes: number; readonly hits: number };
  readonly memory: { readonly regions: number; readonly bytes: number; readonly hits: number; readonly error?: string };
  readonly visible: Record<string, boolean>;
}

it.skipIf(process.platform !== 'linux')(
  "a command finds neither key in its parent's environment or memory, and cannot see the editor's process",
  async () => {
    const root = await mkdtemp(join(tmpdir(), 'cairn-rel-reach-'));
    try {
      const workspace = join(root, 'ws');
      await fs.mkdir(workspace);
      // In the workspace: the command's /tmp is its own (issue 32's sandbox), so the machine's /tmp is not there.
      const spec = join(workspace, 'spec.json');
      const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');
      // The holder adds its own pid to `watch` (the scanner says whether it can see it).
      await fs.writeFile(spec, JSON.stringify({ needles: [hex(MEMORY_KEY), hex(ENV_KEY)], watch: [] }));
      const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/support/workspace/keyHolder.ts', workspace, spec], {
        env: { ...process.env, ANTHROPIC_API_KEY: ENV_KEY },
        input: MEMORY_KEY,
        encoding: 'utf8',
        timeout: 170_000,
      });
      expect(child.status, child.stderr).toBe(0);
      const report = JSON.parse(child.stdout.trim().split('\n').pop()!) as {
        command: { exitCode: number | null; scan: Scan };
        control: { exitCode: number | null; scan: Scan; stderr: string };
        holder: number;
        holding: number;
      };
      expect(report.holding).toBe(MEMORY_KEY.length + ENV_KEY.length);

      // The control: the scanner, run by the holder itself, finds both keys (so a miss below means something).
      const control = report.control.scan;
      expect(report.control.exitCode, report.control.stderr).toBe(0);
      expect(control.environ.hits, 'the control finds the key in the environment').toBeGreaterThan(0);
      // Yama's ptrace_scope 1 or more (Ubuntu's default; not CI's kernel) stops a child reading its parent's
      // memory at all: then the control can only show the environment.
      if (yamaScope() === 0) {
        expect(control.memory.hits, `the control finds the keys in memory: ${JSON.stringify(control.memory)}`).toBeGreaterThan(0);
      }

      // The command the model runs: its parent holds no key, in its environment or its memory.
      const command = report.command.scan;
      expect(report.command.exitCode, JSON.stringify(report.command)).toBe(0);
      expect(command.environ.hits, "keys in the command's parent's environment").toBe(0);
      expect(command.memory.hits, "keys in the command's parent's memory").toBe(0);
      expect(command.memory.regions, "the command's parent's memory was read").toBeGreaterThan(0);
      // And the holder (the editor) is not there to aim at: the command sees only its own namespace's processes.
      expect(command.visible[String(report.holder)], "the editor's process is visible to the command").toBe(false);
      console.info(
        `key reach: control found ${control.environ.hits} in environ, ${control.memory.hits} in ${control.memory.bytes} bytes of memory; the command scanned pid ${command.pid} (${command.memory.bytes} bytes in ${command.memory.regions} regions): found nothing`,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  },
  180_000,
);

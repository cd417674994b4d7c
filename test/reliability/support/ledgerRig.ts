import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { resolveHygiene, type HygieneOverrides } from '../../../src/core/config/hygiene';
import { HashCache } from '../../../src/core/tools/hashCache';
import { IdAllocator } from '../../../src/core/ledger/ids';
import { MemoryResultStore } from '../../support/ledger/memoryResultStore';
import { ResultLedger } from '../../../src/core/ledger/resultLedger';
import type { ExecOptions, ExecResult, Workspace } from '../../../src/core/ports';
import { NodeWorkspace, type NodeWorkspaceOptions } from '../../../src/node/workspace/nodeWorkspace';

/** A real ledger over a real folder: the NodeWorkspace on a temp dir and an in-memory store. */
export interface LedgerRig {
  readonly dir: string;
  readonly root: string;
  readonly workspace: Workspace;
  readonly store: MemoryResultStore;
  readonly ledger: ResultLedger;
  close(): Promise<void>;
}

export interface LedgerRigOptions {
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  /** Wraps the real workspace (e.g. a fake exec where a suite is about arguments, not processes). */
  readonly wrap?: (workspace: NodeWorkspace) => Workspace;
  readonly workspace?: NodeWorkspaceOptions;
  readonly seed?: number;
  /** Hygiene overrides (spec names). */
  readonly hygiene?: HygieneOverrides;
}

export async function startLedgerRig(options: LedgerRigOptions = {}): Promise<LedgerRig> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-rel-'));
  const root = join(dir, 'root');
  await mkdir(root, { recursive: true });
  for (const [path, content] of Object.entries(options.files ?? {})) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  const real = new NodeWorkspace(root, { ripgrepPath: null, ...options.workspace });
  const workspace = options.wrap ? options.wrap(real) : real;
  const store = new MemoryResultStore();
  const config = resolveHygiene(options.hygiene ?? {});
  const ledger = new ResultLedger({
    workspace,
    store,
    config,
    hashCache: new HashCache(),
    ids: new IdAllocator({ digits: config['ids.digits'], seed: options.seed ?? 11 }),
  });
  return { dir, root, workspace, store, ledger, close: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * The real workspace with `exec` replaced: a suite about arguments must not start thousands of
 * processes. Everything else (paths, files, grep) is the real NodeWorkspace.
 */
export function withFakeExec(real: NodeWorkspace, commands: string[]): Workspace {
  return new Proxy(real, {
    get(target, key, receiver) {
      if (key === 'exec') {
        return async (command: string, _options: ExecOptions): Promise<ExecResult> => {
          commands.push(command);
          return { output: `fake exec of ${command.length} chars\n`, exitCode: 0, timedOut: false, cancelled: false };
        };
      }
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Bracket id of a result text. */
export function idOf(text: string): string | undefined {
  return /^\[(#[0-9a-f]+)/.exec(text)?.[1];
}

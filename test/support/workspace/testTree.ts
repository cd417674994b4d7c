import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';

/** A real temporary folder for a test, with files written from a plain `{path: content}` map. */
export interface TestTree {
  readonly root: string;
  write(files: Record<string, string | Uint8Array>): void;
  remove(): void;
}

export function makeTestTree(files: Record<string, string | Uint8Array> = {}): TestTree {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'cairn-ws-')));
  const write = (more: Record<string, string | Uint8Array>): void => {
    for (const [path, content] of Object.entries(more)) {
      const absolute = nodePath.join(root, path);
      mkdirSync(nodePath.dirname(absolute), { recursive: true });
      writeFileSync(absolute, content);
    }
  };
  write(files);
  return { root, write, remove: () => rmSync(root, { recursive: true, force: true }) };
}

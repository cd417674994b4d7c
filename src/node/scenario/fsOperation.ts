/** Applying a scenario's `fs` turn to a real folder (the runner's workspace, or the CLI's `--workspace`). */
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { checkRelativePath } from './scenario';
import type { FsOperation } from './types';

export async function applyFsOperation(operation: FsOperation, dir: string): Promise<void> {
  const target = join(dir, ...checkRelativePath(operation.path).split('/'));
  switch (operation.type) {
    case 'write':
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, operation.content);
      return;
    case 'append':
      await mkdir(dirname(target), { recursive: true });
      await appendFile(target, operation.content);
      return;
    case 'delete':
      await rm(target, { force: true, recursive: true });
      return;
  }
}

export function describeFsOperation(operation: FsOperation): string {
  return operation.type === 'delete'
    ? `delete ${operation.path}`
    : `${operation.type} ${operation.path} (${operation.content.length} chars)`;
}

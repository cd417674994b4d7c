import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { FormatError, parseConformanceFile } from './format';
import { runCase, type WorkspaceFactory } from './runCase';

export interface RunTotals {
  readonly passed: number;
  readonly failed: number;
}

/** Runs every case of every file, printing a line per case, a readable diff per failure, and the totals. */
export async function runFiles(
  paths: readonly string[],
  makeWorkspace: WorkspaceFactory,
  print: (line: string) => void,
): Promise<RunTotals> {
  let passed = 0;
  let failed = 0;
  for (const path of paths) {
    let file;
    try {
      file = parseConformanceFile(await readFile(path, 'utf8'));
    } catch (error) {
      failed++;
      const why = error instanceof FormatError || error instanceof Error ? error.message : String(error);
      print(`✗ ${path}: cannot run this file: ${why}`);
      continue;
    }
    print(`${path}${file.about ? ` — ${file.about}` : ''}`);
    for (const c of file.cases) {
      const report = await runCase(c, file.config, makeWorkspace, `${basename(path)}/${c.name}`);
      const label = `${c.name}${c.spec ? ` (${c.spec})` : ''}`;
      if (report.passed) {
        passed++;
        print(`  ✓ ${label}`);
      } else {
        failed++;
        print(`  ✗ ${label}`);
        for (const failure of report.failures)
          print(
            failure
              .split('\n')
              .map((l) => `      ${l}`)
              .join('\n'),
          );
      }
    }
  }
  print(`${passed} passed, ${failed} failed`);
  return { passed, failed };
}

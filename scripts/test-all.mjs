// `npm test`: every suite in order — type check, unit and integration, conformance, browser, real editor.
// Each suite runs even when an earlier one failed, so one run shows everything; the last line is the
// total as `N passed, M failed` (CI reads it), and the exit code is non-zero when anything failed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const scratch = mkdtempSync(join(tmpdir(), 'cairn-test-all-'));

/** @type {Array<{ name: string; command: string[]; counts: 'vitest' | 'conformance' | 'exit' }>} */
const suites = [
  { name: 'type check', command: ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit'], counts: 'exit' },
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'], counts: 'exit' },
  { name: 'unit + integration', command: ['npx', 'vitest', 'run'], counts: 'vitest' },
  { name: 'host (vscode shim)', command: ['npx', 'vitest', 'run', '-c', 'test/host/vitest.config.ts'], counts: 'vitest' },
  { name: 'conformance', command: ['node', '--import', 'tsx', 'conformance/run.ts'], counts: 'conformance' },
  { name: 'build', command: ['node', 'esbuild.mjs'], counts: 'exit' },
  { name: 'browser', command: ['npx', 'vitest', 'run', '-c', 'test/browser/vitest.config.ts'], counts: 'vitest' },
  { name: 'real editor', command: ['npx', 'vitest', 'run', '-c', 'test/e2e/vitest.config.ts'], counts: 'vitest' },
];

function run(command, extraArgs) {
  return new Promise((resolve) => {
    let tail = '';
    const child = spawn(command[0], [...command.slice(1), ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
    const forward = (stream, target) =>
      stream.on('data', (chunk) => {
        target.write(chunk);
        tail = (tail + chunk.toString()).slice(-4000);
      });
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    child.on('error', (error) => resolve({ code: 1, tail: String(error) }));
    child.on('close', (code) => resolve({ code: code ?? 1, tail }));
  });
}

const results = [];
for (const suite of suites) {
  process.stdout.write(`\n=== ${suite.name}: ${suite.command.join(' ')}\n`);
  const jsonFile = join(scratch, `${suite.name.replace(/\W+/g, '-')}.json`);
  const extra = suite.counts === 'vitest' ? ['--reporter=default', '--reporter=json', `--outputFile.json=${jsonFile}`] : [];
  const { code, tail } = await run(suite.command, extra);
  let passed = 0;
  let failed;
  let skipped = 0;
  if (suite.counts === 'vitest') {
    try {
      const report = JSON.parse(readFileSync(jsonFile, 'utf8'));
      passed = report.numPassedTests;
      failed = report.numFailedTests;
      skipped = report.numPendingTests + report.numTodoTests;
      // A suite that failed outside any test (a crashed setup) still counts as a failure.
      if (code !== 0 && failed === 0) failed = 1;
    } catch {
      failed = 1;
    }
  } else if (suite.counts === 'conformance') {
    const match = /(\d+) passed, (\d+) failed/.exec(tail);
    passed = match ? Number(match[1]) : 0;
    failed = match ? Number(match[2]) : 1;
    if (code !== 0 && failed === 0) failed = 1;
  } else {
    passed = code === 0 ? 1 : 0;
    failed = code === 0 ? 0 : 1;
  }
  results.push({ name: suite.name, passed, failed, skipped });
}
rmSync(scratch, { recursive: true, force: true });

process.stdout.write('\n=== summary\n');
for (const r of results) {
  process.stdout.write(
    `${r.failed > 0 ? 'FAIL' : 'ok  '}  ${r.name}: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}\n`,
  );
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const skipped = results.reduce((n, r) => n + r.skipped, 0);
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed > 0 ? 1 : 0);

/**
 * Every recognizer the shape asks, one per runner or tool family (README: what each keeps and why). They
 * all read every output: a `npm test` run is npm's lines around a test runner's, a `make` run a compiler's.
 */
import type { Finding, OutputRecognizer } from './finding';
import { cargo } from './recognizers/cargo';
import { eslint } from './recognizers/eslint';
import { exitStatus } from './recognizers/exitStatus';
import { gcc } from './recognizers/gcc';
import { goTest } from './recognizers/goTest';
import { jest } from './recognizers/jest';
import { mocha } from './recognizers/mocha';
import { nodeError } from './recognizers/nodeError';
import { nodeTest } from './recognizers/nodeTest';
import { npm } from './recognizers/npm';
import { pip } from './recognizers/pip';
import { pytest } from './recognizers/pytest';
import { pythonTraceback } from './recognizers/pythonTraceback';
import { tap } from './recognizers/tap';
import { tsc } from './recognizers/tsc';

export const RECOGNIZERS: readonly OutputRecognizer[] = [
  exitStatus,
  tap,
  nodeTest,
  jest,
  mocha,
  pytest,
  pythonTraceback,
  nodeError,
  tsc,
  eslint,
  gcc,
  cargo,
  goTest,
  npm,
  pip,
];

/** What all the recognizers find in `lines`, in the order of the lines. */
export function findAll(lines: readonly string[], recognizers: readonly OutputRecognizer[] = RECOGNIZERS): Finding[] {
  return recognizers.flatMap((recognizer) => recognizer.find(lines)).sort((a, b) => a.line - b.line);
}

/**
 * Every recognizer the shape asks, one per runner or tool family (README: what each keeps and why). They
 * all read every output: a `npm test` run is npm's lines around a test runner's, a `make` run a compiler's.
 */
import type { Finding, OutputRecognizer } from './finding';
import { cargo } from './cargo';
import { eslint } from './eslint';
import { exitStatus } from './exitStatus';
import { gcc } from './gcc';
import { goTest } from './goTest';
import { jest } from './jest';
import { mocha } from './mocha';
import { nodeError } from './nodeError';
import { nodeTest } from './nodeTest';
import { npm } from './npm';
import { pip } from './pip';
import { pytest } from './pytest';
import { pythonTraceback } from './pythonTraceback';
import { tap } from './tap';
import { tsc } from './tsc';

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

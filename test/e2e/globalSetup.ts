// Runs once per e2e run, before any test file: provisions the editor and packages the extensions,
// so each test file only starts an editor. A machine that cannot provision fails the run under
// CI=true (never a silent skip) and skips it locally, saying why.
import type { TestProject } from 'vitest/node';
import { isCi, prepareE2eEnvironment, type E2eEnvironment } from './environment';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eEnvironment: E2eEnvironment;
  }
}

export default function setup(project: TestProject): void {
  const environment = prepareE2eEnvironment();
  if (!environment.available) {
    const banner = `\n${'!'.repeat(78)}\nREAL-EDITOR (e2e) SUITE CANNOT RUN: ${environment.reason}\n${'!'.repeat(78)}\n`;
    if (isCi()) throw new Error(banner);
    process.stderr.write(`${banner}Skipping it locally; under CI=true this fails.\n`);
  }
  project.provide('e2eEnvironment', environment);
}

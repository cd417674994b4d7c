/**
 * The smoke of the delegation benchmark (`npm run bench -- economy --scenario bench/scenarios/wide-search.json`
 * gives the figures): the wide search on semver, delegated to two explore children and done inline, both
 * through the real session and the local server, end in the same workspace, and the parent that delegated
 * never saw the children's search results.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBenchScenario, SCENARIOS_DIR } from './benchScenario';
import { playBenchScenario } from './playBench';
import { delegationFigures, splitByAgent } from './delegation';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function play(name: string) {
  const root = await mkdtemp(join(tmpdir(), `cairn-bench-smoke-${name}-`));
  dirs.push(root);
  const bench = await loadBenchScenario(join(SCENARIOS_DIR, `${name}.json`));
  const played = await playBenchScenario(bench, root);
  const { 'x-bench-check': command } = JSON.parse(await readFile(join(SCENARIOS_DIR, `${name}.json`), 'utf8')) as {
    'x-bench-check': string;
  };
  const checked = await promisify(execFile)('sh', ['-c', command], { cwd: played.workspaceDir }).then(
    () => true,
    () => false,
  );
  return { ...played, checked };
}

describe('the wide-search bench scenario', () => {
  it('inline: the parent searches, edits the eight files and the check passes', async () => {
    const { notices, checked, doneReasons } = await play('wide-search-inline');
    expect(notices).toEqual([]);
    expect(doneReasons).toEqual(['end_turn']);
    expect(checked).toBe(true);
  }, 120_000);

  it('delegated: two explore children search, the parent edits from their answers, never sees their results, and saves on its own context', async () => {
    const delegated = await play('wide-search');
    expect(delegated.notices).toEqual([]);
    expect(delegated.doneReasons).toEqual(['end_turn']);
    expect(delegated.checked).toBe(true);
    const { parent, children } = splitByAgent(delegated.requests);
    expect([...children.keys()].sort()).toEqual(['explore-1', 'explore-2']);
    // A child's read of classes/range.js is in the child's requests, never in the parent's.
    const rangeRead = 'const SPACE_CHARACTERS';
    expect(children.get('explore-2')!.some((r) => r.rawBody.includes(rangeRead))).toBe(true);
    expect(parent.some((r) => r.rawBody.includes(rangeRead))).toBe(false);
    const inline = await play('wide-search-inline');
    const figures = delegationFigures('wide-search-inline', delegated.requests, inline.requests);
    expect(figures.parent.peakContext).toBeLessThan(figures.inline.peakContext);
    expect(figures.parent.billed).toBeLessThan(figures.inline.billed);
  }, 240_000);
});

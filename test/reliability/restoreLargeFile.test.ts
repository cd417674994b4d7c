/**
 * Issue 28, case 8: a restore keeps the version it writes over whatever its size, streamed through the blob
 * store, never held whole in memory. A child restores a small checkpoint over a large file the user made
 * (256 MB; `CAIRN_RESTORE_BIG_MB` for another size), then undoes the restore; the large file must come back
 * byte for byte, and the child's peak RSS must not grow by anything near the file's size.
 */
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleChild, LineChild } from '../support/lineChild';

const MEGABYTES = Number(process.env.CAIRN_RESTORE_BIG_MB ?? 256);
/** Far below the file's size: a copy held in memory would pass it several times over. */
const MAX_RSS_GROWTH_MB = 64;
let work: string;
let script: string;

beforeAll(async () => {
  work = await fs.mkdtemp(join(tmpdir(), 'cairn-rel-bigrestore-'));
  const here = dirname(fileURLToPath(import.meta.url));
  script = await bundleChild(join(here, 'support', 'restoreLargeFileChild.ts'), join(work, 'restoreLargeFileChild.cjs'));
}, 60_000);

afterAll(async () => {
  if (work) await fs.rm(work, { recursive: true, force: true });
});

it(`keeps and brings back a ${MEGABYTES} MB version a restore wrote over, streamed`, async () => {
  const root = join(work, 'workspace');
  await fs.mkdir(root);
  const child = new LineChild(script);
  child.send({ root, sessionDir: join(work, 'session'), megabytes: MEGABYTES });
  const line = await child.nextLine(240_000);
  await child.exited;
  expect(line, child.stderr).toBeDefined();
  const report = JSON.parse(line!) as { restoredSmall: boolean; largeBack: boolean; baselineKB: number; peakKB: number };
  expect(report.restoredSmall).toBe(true);
  expect(report.largeBack).toBe(true);
  const growthMB = (report.peakKB - report.baselineKB) / 1024;
  console.log(
    `restore of a ${MEGABYTES} MB version and its undo: peak RSS ${Math.round(report.peakKB / 1024)} MB, growth ${growthMB.toFixed(1)} MB`,
  );
  expect(growthMB).toBeLessThan(MAX_RSS_GROWTH_MB);
}, 300_000);

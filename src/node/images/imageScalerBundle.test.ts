/**
 * Issue 33 item 1's bundle cost: Jimp (the image scaler) is not in the bundle every start of Cairn loads. The
 * code that prepares images is bundled as esbuild.mjs bundles the extension, with the scaler beside it as its
 * own file; the bundle stays small, and an image over the limits is still scaled, by the scaler loaded then.
 */
import { createRequire } from 'node:module';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { Jimp } from 'jimp';
import { afterAll, describe, expect, it } from 'vitest';
import { imageScalerApart, imageScalerBuild } from '../../../scripts/image-scaler-apart.mjs';
import type { prepareImage } from './preparedImage';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('the image scaler, apart from the extension bundle', () => {
  it('leaves Jimp out of the bundle that prepares images, and loads it only to scale one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-scaler-'));
    dirs.push(dir);
    const bundle = join(dir, 'prepared.js');
    await esbuild.build({
      entryPoints: ['src/node/images/preparedImage.ts'],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      plugins: [imageScalerApart],
      logLevel: 'silent',
    });
    await esbuild.build({ ...imageScalerBuild(join(dir, 'imageScaler.js')), sourcemap: false, logLevel: 'silent' });
    const code = await readFile(bundle, 'utf8');
    expect(code).not.toMatch(/@jimp\//);
    // image-size and the checks: tens of kilobytes; with Jimp inside it was megabytes.
    expect(code.length).toBeLessThan(200_000);
    expect(code).toContain('require("./imageScaler.js")');

    const load = createRequire(bundle);
    const { prepareImage: prepare } = load(bundle) as { prepareImage: typeof prepareImage };
    const big = await new Jimp({ width: 3000, height: 2000, color: 0xcc2233ff }).getBuffer('image/png');
    const prepared = await prepare(big, 'big.png');
    expect(prepared.size).toEqual({ width: 1341, height: 894 });
    expect(prepared.note).toMatch(/^Scaled down from 3000×2000/);
  });
});

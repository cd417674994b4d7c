import type { BuildOptions, Plugin } from 'esbuild';

/** The esbuild plugin that leaves `./imageScaler` (imported by preparedImage.ts) to run time. */
export const imageScalerApart: Plugin;
/** The scaler's own bundle options, written to `outfile` (beside the bundle that imports it). */
export function imageScalerBuild(outfile: string, options?: { production?: boolean }): BuildOptions;

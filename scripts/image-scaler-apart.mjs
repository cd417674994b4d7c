// The image scaler (src/node/images/imageScaler.ts, Jimp: about half of what the extension would weigh) is a
// bundle of its own, dist/imageScaler.js, which src/node/images/imageScalerLoader.ts imports only when an image
// must be decoded. A cjs bundle cannot split a chunk off, so the bundle that imports it leaves that import to run time:
// `require('./imageScaler.js')`, found beside the bundle. Used by esbuild.mjs (and its test).

/**
 * The esbuild plugin that leaves `./imageScaler` to run time: imageScalerLoader's `import('./imageScaler')` becomes a
 * module whose one line is a plain `require` of the file beside the bundle, run when the import is (a bare external
 * `import()` would go through Node's ESM loader; a `require` is what the rest of the cjs bundle uses).
 */
export const imageScalerApart = {
  name: 'image-scaler-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/imageScaler$/ }, (args) =>
      /[\\/]imageScalerLoader\.ts$/.test(args.importer) ? { path: 'imageScaler', namespace: 'image-scaler-apart' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'image-scaler-apart' }, () => ({
      contents: 'module.exports = require("./imageScaler.js");',
      loader: 'js',
    }));
    build.onResolve({ filter: /^\.\/imageScaler\.js$/, namespace: 'image-scaler-apart' }, () => ({
      path: './imageScaler.js',
      external: true,
    }));
  },
};

/** The scaler's own bundle options (esbuild), written to `outfile` (beside the bundle that imports it). */
export function imageScalerBuild(outfile, { production = false } = {}) {
  return {
    entryPoints: ['src/node/images/imageScaler.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: !production,
    minify: production,
    logLevel: 'info',
  };
}

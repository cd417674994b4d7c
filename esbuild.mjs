// Builds the extension host bundle (Node, cjs, vscode external) and the webview bundle (browser).
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { imageScalerApart, imageScalerBuild } from './scripts/image-scaler-apart.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [imageScalerApart],
    sourcemap: !production,
    minify: production,
    logLevel: 'info',
  },
  // Jimp, loaded only when an image must be scaled: its own file beside extension.js (scripts/image-scaler-apart.mjs).
  imageScalerBuild('dist/imageScaler.js', { production }),
  // glob and grep run in a worker thread (src/node/workspace/searchThreads.ts), which loads its own
  // file: dist/searchWorker.js, found beside dist/extension.js. It never imports vscode.
  {
    entryPoints: ['src/node/workspace/searchWorker.ts'],
    outfile: 'dist/searchWorker.js',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: !production,
    minify: production,
    logLevel: 'info',
  },
];
if (existsSync('webview-ui/main.tsx')) {
  builds.push({
    entryPoints: ['webview-ui/main.tsx'],
    outfile: 'dist/webview.js',
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    sourcemap: !production,
    minify: production,
    loader: { '.css': 'text' },
    logLevel: 'info',
  });
  // The webview's one stylesheet: the entry imports each component's CSS (beside the component) in cascade
  // order; the page loads only dist/webview.css, so its CSP is unchanged (webview-ui/README.md).
  builds.push({
    entryPoints: ['webview-ui/webview.css'],
    outfile: 'dist/webview.css',
    bundle: true,
    sourcemap: !production,
    minify: production,
    logLevel: 'info',
  });
}

// Everything the model is told lives in src/prompts/*.md; the extension reads them from dist/prompts.
function copyPrompts() {
  mkdirSync('dist/prompts', { recursive: true });
  for (const name of readdirSync('src/prompts').filter((n) => n.endsWith('.md'))) {
    copyFileSync(`src/prompts/${name}`, `dist/prompts/${name}`);
  }
}
copyPrompts();

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}

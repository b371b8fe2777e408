// One build script, two option objects (house style §8): the extension (Node, CommonJS, `vscode`
// external) and the webview (browser, IIFE). `--production` minifies; `--watch` rebuilds on change.
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const extension = {
  entryPoints: ['src/host/extension.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: 'dist/extension.js',
  // pg (the team index's client) is bundled; its optional native binding never is.
  external: ['vscode', 'pg-native'],
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

/**
 * The team-index command line (`cadenza-index`): Node, CommonJS, from the same core. `pg-native` is
 * pg's optional libpq binding, loaded only on request; it stays out of every bundle.
 * @type {import('esbuild').BuildOptions}
 */
const cli = {
  entryPoints: ['src/cli/cadenzaIndex.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: 'dist/cli/index.js',
  external: ['pg-native'],
  banner: { js: '#!/usr/bin/env node' },
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

/** @type {import('esbuild').BuildOptions} */
const webview = {
  entryPoints: { webview: 'src/webview/main.ts' },
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  outdir: 'dist',
  loader: { '.css': 'css' },
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

async function main() {
  const fs = require('fs');
  // A production build starts from an empty dist/, so no stale source maps end up in the .vsix.
  if (production) fs.rmSync('dist', { recursive: true, force: true });
  const builds = [extension, cli];
  if (fs.existsSync('src/webview/main.ts')) builds.push(webview);
  if (watch) {
    for (const options of builds) await (await esbuild.context(options)).watch();
    return;
  }
  await Promise.all(builds.map((options) => esbuild.build(options)));
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

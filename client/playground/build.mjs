#!/usr/bin/env node
// Builds the playground (`npm run playground`, after `npm run build`) into
// client/playground/dist/, a static page:
//   index.html, playground.css
//   playground.js     the page's script, with the language server's worker
//                     script (dist/browser/server.js, minified) in it as a string,
//                     started from a Blob URL: so the page also works when
//                     opened from file://
//   docs/rules/*.md   the rule docs the diagnostics link to
// The example picker's files (examples/ and the showcase) are bundled in.
//
//   node client/playground/build.mjs [--out DIR]   (default client/playground/dist)

import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { browserStandIns } from '../../server/lsp/bundle-browser.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const outAt = process.argv.indexOf('--out');
const OUT = outAt === -1 ? path.join(HERE, 'dist') : path.resolve(process.argv[outAt + 1] ?? '');
const WORKER = path.join(ROOT, 'dist/browser/server.js');
const SHOWCASE = path.join(ROOT, 'test/fixtures/showcase.msg.md');

if (!existsSync(WORKER)) {
  process.stderr.write('playground: dist/browser/server.js is missing; run `npm run build` first\n');
  process.exit(2);
}

const check = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(HERE, 'tsconfig.json')], { stdio: 'inherit' });
if (check.status !== 0) process.exit(1);

function examples() {
  const dir = path.join(ROOT, 'examples');
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => ({ name, text: readFileSync(path.join(dir, name), 'utf8') }));
  return [{ name: 'showcase.msg.md', text: readFileSync(SHOWCASE, 'utf8') }, ...files];
}

const virtualModules = {
  name: 'playground-virtual-modules',
  setup(build) {
    build.onResolve({ filter: /^msglint:/ }, ({ path: id }) => ({ path: id, namespace: 'playground' }));
    build.onLoad({ filter: /.*/, namespace: 'playground' }, async ({ path: id }) => {
      if (id === 'msglint:worker-source') {
        // Minified here: a string is not minified with the page's script.
        const { code } = await esbuild.transform(readFileSync(WORKER, 'utf8'), { minify: true, loader: 'js', target: 'es2022' });
        return { contents: code, loader: 'text', watchFiles: [WORKER] };
      }
      if (id === 'msglint:examples') return { contents: JSON.stringify(examples()), loader: 'json' };
      return { errors: [{ text: `unknown module ${id}` }] };
    });
  },
};

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
await esbuild.build({
  absWorkingDir: ROOT,
  entryPoints: [path.join(HERE, 'src/main.ts')],
  outfile: path.join(OUT, 'playground.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  define: { 'import.meta.url': '"about:msglint-playground"' },
  plugins: [virtualModules, browserStandIns],
  logLevel: 'warning',
});
copyFileSync(path.join(HERE, 'index.html'), path.join(OUT, 'index.html'));
copyFileSync(path.join(HERE, 'playground.css'), path.join(OUT, 'playground.css'));
cpSync(path.join(ROOT, 'docs/rules'), path.join(OUT, 'docs/rules'), { recursive: true });
process.stdout.write(`playground: built ${path.join(OUT, 'index.html')}\n`);

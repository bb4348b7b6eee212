#!/usr/bin/env node
// Bundles the language server for a browser's Web Worker (run by
// `npm run build`, after tsc): dist/browser/server.js, one classic script
// (an IIFE, so `new Worker(url)` loads it without `{ type: 'module' }`),
// with everything it uses (vscode-languageserver's browser side, yaml),
// and nothing of Node (test/lsp/browser-bundle.test.ts checks).
//
// The feature modules of server/lsp import protocol values and types from
// 'vscode-languageserver/node'; the browser side exports the same ones, so
// the bundle maps that name to it.
//
// server/base/lazy.ts loads yaml (and, for the command, picomatch and
// ignore) on first use by calling `require('yaml')` by name where the module
// has a `require`: esbuild gives every bundle one (its __require), bundles
// what is required by name and evaluates it on the first call, as in the
// command's bundle. Its other branch, for Node's ESM loader, imports
// node:module and names node:crypto: here both are modules that throw when
// used. Any other `node:` module is a build error.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

const STAND_INS = {
  'node:module': `export function createRequire() {
  throw new Error('msglint: node:module is not available in the browser');
}`,
  'node:crypto': `throw new Error('msglint: node:crypto is not available in the browser');`,
};

/**
 * The esbuild plugin for browser bundles of msglint's code (this worker and
 * the playground's page): the stand-ins above, and an error for any other
 * `node:` module.
 */
export const browserStandIns = {
  name: 'msglint-browser-stand-ins',
  setup(build) {
    // The `worker` export condition first: a Web Worker has no DOM, and
    // remark's entity decoder (decode-named-character-reference) would take
    // its `browser` entry, which calls `document.createElement`.
    build.initialOptions.conditions = ['worker', ...(build.initialOptions.conditions ?? [])];
    build.onResolve({ filter: /^node:/ }, ({ path: id, importer }) => {
      if (Object.hasOwn(STAND_INS, id)) return { path: id, namespace: 'browser-stand-in' };
      return { errors: [{ text: `${id} (imported by ${importer}) is not available in a browser` }] };
    });
    build.onLoad({ filter: /.*/, namespace: 'browser-stand-in' }, ({ path: id }) => ({ resolveDir: ROOT, contents: STAND_INS[id] }));
  },
};

/** The worker's bundle; `outfile` relative to the project. */
export async function bundleWorker(outfile = 'dist/browser/server.js') {
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ['dist/server/lsp/browser.js'],
    outfile,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    alias: { 'vscode-languageserver/node': 'vscode-languageserver/browser' },
    define: { MSGLINT_VERSION: JSON.stringify(version), 'import.meta.url': '"about:msglint-worker"' },
    plugins: [browserStandIns],
    logLevel: 'warning',
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await bundleWorker();

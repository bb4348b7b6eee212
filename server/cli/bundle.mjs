#!/usr/bin/env node
// Bundles the `msglint` command (run by `npm run build`, after tsc):
//   dist/cli/msglint.cjs        the command and its worker thread, with the
//                               packages it uses (yaml, picomatch, ignore),
//                               as one script
//   dist/cli/msglint.cjs.cache  V8's code cache of that script
//   dist/cli/main.js            the package's bin: runs the script's command
//   dist/cli/worker.js          a --concurrency worker thread (main.js starts
//                               it by this name, next to itself)
//   dist/cli/package.json       says the entry files are CommonJS
//
// Why one script: loading the ~100 modules tsc writes, and yaml's ~80 from
// node_modules, costs Node tens of milliseconds of module resolution at
// every start, which is most of the run for a pre-commit hook on a few
// files. Why a script and not a module: Node 20 keeps no compiled code
// between runs, but a script compiled with `vm.Script` can be given V8's
// code cache, made here by running the command once over examples/. With
// it, a run compiles none of the functions the examples used (what that
// saves is in docs/performance.md). A cache V8 rejects (another Node
// version or flags) is ignored, and the script is compiled as usual.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { NODE_BUNDLE_ALIASES } from './bundle-aliases.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(ROOT, 'dist/cli');
const SCRIPT = path.join(OUT, 'msglint.cjs');
const CACHE = `${SCRIPT}.cache`;

// Each entry is loaded only when called: `msglint --version` evaluates neither.
const ENTRY = `
export const runCli = () => import('./dist/server/cli/main.js');
export const runWorker = () => import('./dist/server/cli/worker.js');
`;

await esbuild.build({
  absWorkingDir: ROOT,
  stdin: { contents: ENTRY, resolveDir: ROOT, sourcefile: 'msglint-entry.js', loader: 'js' },
  outfile: SCRIPT,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  alias: NODE_BUNDLE_ALIASES,
  // import.meta.url of the bundled modules: the script's own URL (dist/cli/),
  // where the bin and worker.js are too.
  define: { 'import.meta.url': '__msglintScriptUrl' },
  banner: { js: 'var __msglintScriptUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
});

/**
 * V8 flags the command sets for itself, before it compiles anything (the
 * language server sets the same ones in server/lsp/main.ts). (V8 has had
 * both flags for years; one it did not know would be named on stderr, and
 * tests check that stderr stays empty.)
 *
 * Inlining only small functions: a run of msglint is short, and most of its
 * functions get optimized only once it is half over. TurboFan compiles them
 * on background threads that share the cores with the thread that lints,
 * and with default inlining that compiling is a large part of a run's CPU
 * time; with less inlining each compile is much cheaper and the code about
 * as fast for work this short.
 *
 * No allocation-site pretenuring: when a young-generation collection finds
 * most objects of an allocation site alive, V8 starts allocating that site's
 * objects in the old generation. Over a tree of small files, a collection
 * that happens while a file's tree is alive makes it do so in some runs and
 * not others, and then every later file's garbage goes to the old
 * generation, which makes those runs much slower.
 *
 * The measurements behind both are in docs/performance.md ("V8 settings").
 */
const CLI_V8_FLAGS = '--max-inlined-bytecode-size-cumulative=100 --no-allocation-site-pretenuring';

/**
 * The code of both entry files: compiles the script with its cache and calls
 * one of its entries. `makeCache`: also write the cache at a successful exit.
 * The flags are set by the command's entry only: a worker thread runs in the
 * same process, with the same flags, and so can use the same cache (V8
 * rejects a cache made under other flags).
 */
const loader = (call, makeCache = false) => `'use strict';
${call === 'runCli' ? `require('node:v8').setFlagsFromString('${CLI_V8_FLAGS}');\n` : ''}const { readFileSync${makeCache ? ', writeFileSync' : ''} } = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

const file = path.join(__dirname, 'msglint.cjs');
let cachedData;
try {
  cachedData = readFileSync(file + '.cache');
} catch {
  // No cache: compile as usual.
}
const source = readFileSync(file, 'utf8');
const script = new vm.Script('(function (exports, require, module, __filename, __dirname) {' + source + '\\n})', { filename: file, cachedData });
if (cachedData && script.cachedDataRejected && process.env.MSGLINT_DEBUG) {
  process.stderr.write('msglint: V8 rejected the code cache ' + file + '.cache: compiled without it\\n');
}
const bundle = { exports: {} };
script.runInThisContext()(bundle.exports, createRequire(file), bundle, file, __dirname);
${makeCache ? "process.on('exit', (code) => {\n  if (code === 0) writeFileSync(file + '.cache', script.createCachedData());\n});\n" : ''}bundle.exports.${call}();
`;

// The entry files are CommonJS (this package.json says so for dist/cli/):
// an ES module entry makes Node load its ES module loader first, a few
// milliseconds of every start.
writeFileSync(path.join(OUT, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
writeFileSync(path.join(OUT, 'main.js'), `#!/usr/bin/env node\n// The msglint command: see server/cli/bundle.mjs.\n${loader('runCli')}`);
chmodSync(path.join(OUT, 'main.js'), 0o755);
writeFileSync(path.join(OUT, 'worker.js'), `// A msglint --concurrency worker thread: see server/cli/bundle.mjs.\n${loader('runWorker')}`);

// The code cache: the command run once over examples/ (output discarded);
// at exit, V8's cache of everything compiled so far.
rmSync(CACHE, { force: true });
const maker = path.join(OUT, 'make-cache.js');
writeFileSync(maker, loader('runCli', true));
const made = spawnSync(process.execPath, [maker, '--format', 'json', path.join(ROOT, 'examples')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
rmSync(maker, { force: true });
if (made.status !== 0 || !existsSync(CACHE)) {
  process.stderr.write(`bundle: making the code cache failed (exit ${made.status}); msglint runs without it\n`);
  process.exitCode = 1;
}

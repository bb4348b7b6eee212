#!/usr/bin/env node
// Builds the VS Code extension with esbuild:
//   dist/extension.js      the extension (client/src/extension.ts, `vscode` external)
//   dist/server.js         the language server (server/lsp/main.ts) with all its
//                          dependencies, so the .vsix needs no node_modules
//   dist/web/extension.js  the extension for VS Code for the Web (client/src/browser.ts),
//                          the manifest's `browser` entry
//   dist/web/server.js     the language server for a Web Worker (server/lsp/browser.ts),
//                          bundled as `npm run build` bundles dist/browser/server.js
//
//   node client/build.mjs                   bundle into client/dist (with source maps)
//   node client/build.mjs --watch           the same, rebuilding on changes
//   node client/build.mjs --package [--out FILE.vsix] [--web-only]
//                                           bundle into a staging folder and pack a
//                                           .vsix with @vscode/vsce (default:
//                                           client/msglint-VERSION.vsix); no network;
//                                           --web-only: without `main` (see packageVsix)
//
// The Node bundles are CommonJS (VS Code loads extensions as CommonJS; the
// server runs as a plain Node module: `node dist/server.js --stdio`). The web
// extension is CommonJS too (the web worker extension host loads it that
// way); the web server is a classic script for `new Worker(url)`. Neither web
// bundle may import anything at run time but `vscode`.

import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { NODE_BUNDLE_ALIASES } from '../server/cli/bundle-aliases.mjs';
import { browserStandIns } from '../server/lsp/bundle-browser.mjs';

const require = createRequire(import.meta.url);
const CLIENT = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(CLIENT);
const VERSION = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')).version;

/** What goes into the .vsix besides the bundles: the manifest and its `files` outside dist/. */
async function packageFiles() {
  const manifest = JSON.parse(await readFile(path.join(CLIENT, 'package.json'), 'utf8'));
  return ['package.json', ...manifest.files.filter((f) => !f.startsWith('dist/'))];
}

const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * Fails when a bundle still imports a package at run time (the .vsix has no
 * node_modules), or, for a web bundle, a Node built-in.
 */
function checkSelfContained(metafile, allowed, { web = false } = {}) {
  const problems = [];
  for (const [file, out] of Object.entries(metafile.outputs)) {
    for (const imp of out.imports) {
      if (imp.external && (web || !BUILTINS.has(imp.path)) && !allowed.includes(imp.path)) problems.push(`${file} imports ${imp.path} at run time`);
    }
  }
  if (problems.length) throw new Error(`The bundle is not self-contained:\n  ${problems.join('\n  ')}`);
}

/** esbuild options of the four bundles, into `outdir`: Node extension, Node server, web extension, web server. */
function configs(outdir, { dev }) {
  const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: dev ? 'linked' : false,
    minify: !dev,
    keepNames: true,
    metafile: true,
    logLevel: 'warning',
    absWorkingDir: ROOT,
  };
  return [
    {
      ...common,
      entryPoints: [path.join(CLIENT, 'src/extension.ts')],
      outfile: path.join(outdir, 'extension.js'),
      external: ['vscode'],
      // vscode-languageclient's own modules need no __dirname tricks.
    },
    {
      ...common,
      entryPoints: [path.join(ROOT, 'server/lsp/main.ts')],
      outfile: path.join(outdir, 'server.js'),
      alias: NODE_BUNDLE_ALIASES,
      // The server finds its package.json (for its version) from import.meta.url.
      define: { 'import.meta.url': '__msglint_import_meta_url' },
      banner: { js: 'var __msglint_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    },
    {
      ...common,
      platform: 'browser',
      target: 'es2022',
      entryPoints: [path.join(CLIENT, 'src/browser.ts')],
      outfile: path.join(outdir, 'web/extension.js'),
      external: ['vscode'],
    },
    {
      ...common,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      entryPoints: [path.join(ROOT, 'server/lsp/browser.ts')],
      outfile: path.join(outdir, 'web/server.js'),
      // The server's feature modules import protocol values from the Node side; the browser side exports the same.
      alias: { 'vscode-languageserver/node': 'vscode-languageserver/browser' },
      define: { MSGLINT_VERSION: JSON.stringify(VERSION), 'import.meta.url': '"about:msglint-worker"' },
      plugins: [browserStandIns],
    },
  ];
}

/**
 * The config schema (`npm run sync` writes msglint.schema.json) for the
 * manifest's `jsonValidation`: as it is for .msglintrc.json and
 * .msglintrc.jsonc, and under the `msglint` key for package.json (whole,
 * since VS Code merges the schemas that extensions give package.json).
 */
async function writeSchemas(outdir) {
  const schema = JSON.parse(await readFile(path.join(ROOT, 'msglint.schema.json'), 'utf8'));
  await writeFile(path.join(outdir, 'msglint.schema.json'), JSON.stringify(schema));
  // package.json is plain JSON: the words that allow comments stay with the config files' schema.
  const { $schema, $id, title, allowComments: _c, allowTrailingCommas: _t, ...config } = schema;
  const packageJson = { $schema, title: 'package.json: msglint', type: 'object', properties: { msglint: { ...config, title } } };
  await writeFile(path.join(outdir, 'package-json.schema.json'), JSON.stringify(packageJson));
}

/** Bundles the extensions and the servers into `outdir`, with the config schemas. */
export async function bundle(outdir, { dev = false } = {}) {
  await mkdir(outdir, { recursive: true });
  await writeSchemas(outdir);
  const [ext, server, webExt, webServer] = await Promise.all(configs(outdir, { dev }).map((c) => esbuild.build(c)));
  checkSelfContained(ext.metafile, ['vscode']);
  checkSelfContained(server.metafile, []);
  checkSelfContained(webExt.metafile, ['vscode'], { web: true });
  checkSelfContained(webServer.metafile, [], { web: true });
}

async function watch(outdir) {
  const contexts = await Promise.all(configs(outdir, { dev: true }).map((c) => esbuild.context({ ...c, logLevel: 'info' })));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log(`Watching; bundles go to ${path.relative(process.cwd(), outdir) || '.'}`);
}

/**
 * Packs a .vsix of the extension into `out` (an absolute path) without
 * touching client/dist. `webOnly` leaves out `main` and the Node bundles: a
 * VS Code with a Node extension host (code-server) then has to run the
 * `browser` entry in its web worker extension host (test/vscode does).
 */
export async function packageVsix(out, { webOnly = false } = {}) {
  const stage = await mkdtemp(path.join(os.tmpdir(), 'msglint-vsix-'));
  try {
    for (const f of await packageFiles()) await cp(path.join(CLIENT, f), path.join(stage, f), { recursive: true });
    if (webOnly) {
      const manifest = JSON.parse(await readFile(path.join(stage, 'package.json'), 'utf8'));
      delete manifest.main;
      manifest.files = manifest.files.filter((f) => !['dist/extension.js', 'dist/server.js'].includes(f));
      await writeFile(path.join(stage, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
    }
    await bundle(path.join(stage, 'dist'));
    const vsceDir = path.dirname(require.resolve('@vscode/vsce/package.json'));
    const vsce = path.join(vsceDir, require('@vscode/vsce/package.json').bin.vsce);
    await mkdir(path.dirname(out), { recursive: true });
    // Everything is bundled: no dependencies to list or copy, and nothing to fetch.
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out],
      { cwd: stage, env: { ...process.env, CI: 'true', NO_UPDATE_NOTIFIER: '1' }, maxBuffer: 16 * 1024 * 1024 },
    );
    if (process.env.MSGLINT_BUILD_VERBOSE) process.stdout.write(stdout + stderr);
    await stat(out);
    return out;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

async function main(argv) {
  const args = argv.slice(2);
  const outIndex = args.indexOf('--out');
  if (args.includes('--package')) {
    const version = JSON.parse(await readFile(path.join(CLIENT, 'package.json'), 'utf8')).version;
    const out = path.resolve(outIndex !== -1 ? args[outIndex + 1] : path.join(CLIENT, `msglint-${version}.vsix`));
    await packageVsix(out, { webOnly: args.includes('--web-only') });
    console.log(`Packed ${path.relative(process.cwd(), out)}`);
  } else if (args.includes('--watch')) {
    await watch(path.join(CLIENT, 'dist'));
  } else {
    await bundle(path.join(CLIENT, 'dist'), { dev: true });
    console.log(`Bundled ${path.relative(process.cwd(), path.join(CLIENT, 'dist'))}/extension.js, server.js, web/extension.js and web/server.js`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv).catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    if (e?.stderr) console.error(String(e.stderr));
    if (e?.stdout) console.error(String(e.stdout));
    process.exit(1);
  });
}

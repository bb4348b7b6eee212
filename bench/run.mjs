#!/usr/bin/env node
// `npm run bench`: msglint's performance goals, measured (docs/performance.md
// says how to read the results).
//
// Builds msglint (dist/), generates the corpora (bench/generate.mjs, into the
// git-ignored bench/out/), checks that msglint finds nothing in them, then
// times whole processes, best of N:
//   - the msglint CLI and markdownlint (bench/markdownlint-cli.mjs, the
//     library's sync API with its default config) on the same files;
//   - linear growth: a 5,000-cell file against a 50,000-cell file;
//   - a 2,000-file tree with --concurrency 1 / 2 / auto (and 1 / 2 pinned
//     to one core with taskset, where it works) and --cache cold / warm, when
//     the CLI has those options (read from --help);
//   - the language server over stdio on the 5,000-turn file, and every kind
//     of keystroke of issue 21 on the 10-, 1,000- and 5,000-turn files.
// Writes bench/results.json and bench/results.md and prints the tables.
//
// usage: node bench/run.mjs [--runs N] [--quick] [--full] [--no-build] [--only LIST]
//   --runs N      best of N runs (default 5; --quick: 1)
//   --quick       smoke run: 1 run, 3 LSP samples; results go to bench/out/
//                 (results-quick.json/.md) and leave bench/results.* alone
//   --full        also runs markdownlint on the 5,000-turn file (once; this
//                 takes minutes and gigabytes) and on the 2,000-file tree
//   --no-build    use dist/ as it is
//   --only LIST   comma-separated sections: cli,growth,tree,lsp,memory
//                 (results then go to bench/out/ as with --quick); memory
//                 (peak RSS of lint and every export on a 50 MB
//                 conversation, minutes) runs only when named here

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { GENERATOR_VERSION, TREE, generateAll } from './generate.mjs';
import { checkClean, rssMethod } from './lib/process.mjs';
import { goals, renderMarkdown } from './lib/report.mjs';
import { BENCH, NODE, OUT, ROOT, fail, fmtMB, fmtS, log, round, target } from './lib/util.mjs';
import { cliSection, startupSection } from './sections/cli.mjs';
import { growthSection } from './sections/growth.mjs';
import { lspSection } from './sections/lsp.mjs';
import { memorySection } from './sections/memory.mjs';
import { treeSection } from './sections/tree.mjs';

// After the build, dist/ is copied to bench/out/dist/ and measured there: the
// same files, but safe from a rebuild of dist/ while the bench runs (others
// may build in this work tree). Modules resolve node_modules and msglint's
// package.json by walking up, so the copy runs as dist/ does.
// BENCH_CLI / BENCH_LSP: measure another entry point (e.g. a stub to try the bench itself).
// BENCH_LSP_NODE_ARGS: node options for the language server (profiling).
if (process.env.BENCH_CLI) target.cli = path.resolve(process.env.BENCH_CLI);
if (process.env.BENCH_LSP) target.lsp = path.resolve(process.env.BENCH_LSP);

// ---------------------------------------------------------------- options

const USAGE = readFileSync(fileURLToPath(import.meta.url), 'utf8').match(/\/\/ usage:[\s\S]*?\n\n/)[0].replace(/^\/\/ ?/gm, '');

function parseOptions(argv) {
  const o = { runs: undefined, quick: false, full: false, build: true, only: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') o.quick = true;
    else if (a === '--full') o.full = true;
    else if (a === '--no-build') o.build = false;
    else if (a === '--runs' || a.startsWith('--runs=')) {
      const v = a.includes('=') ? a.slice(7) : argv[++i];
      o.runs = Number(v);
      if (!Number.isInteger(o.runs) || o.runs < 1) fail(`--runs needs a positive whole number, not ${v}`);
    } else if (a === '--only' || a.startsWith('--only=')) {
      const v = a.includes('=') ? a.slice(7) : argv[++i];
      o.only = new Set(String(v).split(','));
      for (const s of o.only) if (!['cli', 'growth', 'tree', 'lsp', 'memory'].includes(s)) fail(`--only: unknown section ${s}`);
    } else if (a === '--help' || a === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else fail(`unknown option ${a}\n${USAGE}`);
  }
  o.runs ??= o.quick ? 1 : 5;
  o.lspSamples = o.quick ? 3 : 10;
  return o;
}

async function main() {
  const o = parseOptions(process.argv.slice(2));
  const started = performance.now();
  // memory takes minutes of its own: only when asked for.
  const section = (s) => (!o.only ? s !== 'memory' : o.only.has(s));
  mkdirSync(OUT, { recursive: true });
  const load0 = os.loadavg();
  // The 1-minute load average every 5 s: how busy the machine was while we measured.
  const loadSamples = [load0[0]];
  setInterval(() => loadSamples.push(os.loadavg()[0]), 5000).unref();
  const machine = {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    availableParallelism: os.availableParallelism?.() ?? null,
    memoryGiB: round(os.totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  };
  log(`# msglint benchmark`);
  log(`${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}; best of ${o.runs}${o.quick ? ' (quick)' : ''}`);
  if (load0[0] > machine.cores) log(`warning: load average ${load0[0].toFixed(1)} on ${machine.cores} cores: other processes share the CPU and the timings will be noisy`);

  if (o.build) {
    log('\n## build');
    const t = performance.now();
    const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) fail(`npm run build failed:\n${(r.stdout + r.stderr).trim().split('\n').slice(-30).join('\n')}`);
    log(`  npm run build: ${fmtS((performance.now() - t) / 1000)}`);
  }
  if (!existsSync(path.join(ROOT, 'dist/cli/main.js'))) fail('dist/cli/main.js is missing: run npm run build');
  const snapshot = path.join(OUT, 'dist');
  rmSync(snapshot, { recursive: true, force: true });
  cpSync(path.join(ROOT, 'dist'), snapshot, { recursive: true });
  if (!process.env.BENCH_CLI) target.cli = path.join(snapshot, 'cli/main.js');
  if (!process.env.BENCH_LSP) target.lsp = path.join(snapshot, 'server/lsp/main.js');
  log(`  measuring a copy of dist/ in ${path.relative(ROOT, snapshot)}/`);
  target.rssMethod = process.env.BENCH_RSS === 'preload' ? 'preload' : rssMethod();

  log('\n## corpora');
  let t = performance.now();
  const manifest = generateAll(OUT);
  log(`  generated in ${fmtS((performance.now() - t) / 1000)} (bench/generate.mjs v${GENERATOR_VERSION}) into ${path.relative(ROOT, OUT)}/`);
  for (const [key, f] of Object.entries(manifest.files)) log(`  ${key.padEnd(11)} ${fmtMB(f.bytes).padStart(9)}  ${f.file}`);
  log(`  tree        ${fmtMB(manifest.tree.bytes).padStart(9)}  ${manifest.tree.files} files under ${TREE.dir}/`);
  t = performance.now();
  for (const [key, f] of Object.entries(manifest.files)) {
    if (key.startsWith('turns') && !section('lsp') && !(section('cli') && key !== 'turns10')) continue;
    if (key.startsWith('cells') && !section('growth')) continue;
    await checkClean(f.file, [f.path], 1);
  }
  if (section('tree')) await checkClean('tree', [TREE.dir], manifest.tree.files);
  log(`  msglint reports nothing on them (checked in ${fmtS((performance.now() - t) / 1000)})`);

  const rulesJson = spawnSync(NODE, [target.cli, 'rules', '--format', 'json'], { cwd: ROOT, encoding: 'utf8' });
  let rules = null;
  try {
    const list = JSON.parse(rulesJson.stdout);
    rules = { total: list.length, off: list.filter((r) => r.severity === 'off').map((r) => r.id) };
  } catch {
    // older CLI
  }
  const versionOf = (script, args) => spawnSync(NODE, [script, ...args], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  const mdlVersion = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/markdownlint/package.json'), 'utf8')).version;

  const results = {
    date: new Date().toISOString(),
    machine,
    loadAverage: { start: load0.map((x) => round(x, 2)) },
    options: { runs: o.runs, quick: o.quick, full: o.full, only: o.only ? [...o.only] : null },
    peakRssMethod: target.rssMethod === 'time' ? '/usr/bin/time -f %M' : 'process.resourceUsage().maxRSS (preload)',
    msglint: { version: versionOf(target.cli, ['--version']), rules },
    markdownlint: { version: mdlVersion, config: 'default (every rule on)' },
    corpora: {
      generatorVersion: GENERATOR_VERSION,
      ...Object.fromEntries(Object.entries(manifest.files).map(([k, f]) => [k, { file: f.file, bytes: f.bytes, sha256: f.sha256, ...(f.turns ? { turns: f.turns } : { cells: f.cells }) }])),
      tree: { dir: TREE.dir, files: manifest.tree.files, bytes: manifest.tree.bytes, sha256: manifest.tree.sha256 },
    },
  };

  // Each section is a module of bench/sections/ and adds its part of results.
  results.startup = await startupSection(o);
  if (section('cli')) results.cli = await cliSection(manifest, o);
  if (section('growth')) results.growth = await growthSection(manifest, o, results.startup);
  if (section('tree')) results.tree = await treeSection(manifest, o);
  if (section('lsp')) results.lsp = await lspSection(manifest, o);
  if (section('memory')) results.memory = await memorySection();

  results.loadAverage.end = os.loadavg().map((x) => round(x, 2));
  results.loadAverage.during = { mean: round(loadSamples.reduce((a, b) => a + b, 0) / loadSamples.length, 2), max: round(Math.max(...loadSamples), 2) };
  results.totalSeconds = round((performance.now() - started) / 1000, 1);
  results.goals = goals(results);
  const md = renderMarkdown(results);
  const toBench = !o.quick && !o.only;
  const jsonPath = toBench ? path.join(BENCH, 'results.json') : path.join(OUT, 'results-quick.json');
  const mdPath = toBench ? path.join(BENCH, 'results.md') : path.join(OUT, 'results-quick.md');
  writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(mdPath, md);
  log(`\n${md}`);
  log(`wrote ${path.relative(ROOT, jsonPath)} and ${path.relative(ROOT, mdPath)} (${fmtS(results.totalSeconds)} in all)`);
}

main().catch((e) => {
  process.stderr.write(`bench: ${e?.stack ?? e}\n`);
  process.exit(1);
});

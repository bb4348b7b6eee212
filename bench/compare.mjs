#!/usr/bin/env node
// Two builds of msglint side by side, interleaved on the same machine: this
// checkout's dist/ and a baseline's (another checkout or worktree, built).
// Each round runs every measurement once for each build, alternating which
// goes first, so that load from other work falls on both alike. Reports
// medians and the change from the baseline.
//
// usage: node bench/compare.mjs --baseline DIR [--rounds N] [--no-build] [--only LIST]
//   --baseline DIR  a checkout whose dist/ is built (npm run build there)
//   --rounds N      rounds (default 10)
//   --no-build      use this checkout's dist/ as it is
//   --only LIST     comma-separated: turns1000,turns5000,tree,lsp (the default),
//                   and, only when named, the language server's guard figures
//                   (lib/compare-lsp.mjs): keystrokes (every kind on 10,
//                   1,000 and 5,000 turns, with completion, hover and
//                   semantic tokens), first (the first keystroke of each kind on a
//                   fresh server), memory (after 10,000 random keystrokes; a
//                   few minutes per build and round)

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { TREE, generateAll } from './generate.mjs';
import { runOnce } from './lib/process.mjs';
import { firstKeystrokes, keystrokesOnce, logGuard, memoryOnce } from './lib/compare-lsp.mjs';
import { OUT, ROOT, fail, log, median, round, target } from './lib/util.mjs';
import { benchLsp } from './sections/lsp.mjs';

function parseOptions(argv) {
  const o = { baseline: undefined, rounds: 10, build: true, only: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--baseline') o.baseline = path.resolve(argv[++i] ?? '');
    else if (a === '--rounds') o.rounds = Number(argv[++i]);
    else if (a === '--no-build') o.build = false;
    else if (a === '--only') o.only = new Set(String(argv[++i]).split(','));
    else fail(`unknown option ${a}`);
  }
  if (!o.baseline) fail('--baseline DIR is required: a checkout with dist/ built');
  if (!Number.isInteger(o.rounds) || o.rounds < 1) fail('--rounds needs a positive whole number');
  return o;
}

/** A copy of a build's dist/ under bench/out/, safe from rebuilds while measuring. */
function snapshot(checkout, name) {
  const dist = path.join(checkout, 'dist');
  if (!existsSync(path.join(dist, 'cli/main.js'))) fail(`${dist}/cli/main.js is missing: build that checkout first`);
  const dir = path.join(OUT, 'compare', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(dist, path.join(dir, 'dist'), { recursive: true });
  // The language server resolves node_modules and package.json by walking up.
  cpSync(path.join(checkout, 'package.json'), path.join(dir, 'package.json'));
  return { cli: path.join(dir, 'dist/cli/main.js'), lsp: path.join(dir, 'dist/server/lsp/main.js') };
}

async function main() {
  const o = parseOptions(process.argv.slice(2));
  if (o.build) {
    const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) fail(`npm run build failed:\n${(r.stdout + r.stderr).trim().split('\n').slice(-20).join('\n')}`);
  }
  const builds = { baseline: snapshot(o.baseline, 'baseline'), current: snapshot(ROOT, 'current') };
  // bench/out/compare/ lies under this checkout's node_modules' parent, so both copies resolve it.
  const manifest = generateAll(OUT);
  target.rssMethod = 'time';
  const want = (k) => !o.only || o.only.has(k);
  const named = (k) => !!o.only?.has(k);
  const guard = Object.fromEntries(Object.keys(builds).map((b) => [b, { keystrokes: [], first: [], memory: [] }]));
  const cases = [];
  if (want('turns1000')) cases.push({ name: '1,000-turn file', args: [manifest.files.turns1000.path] });
  if (want('turns5000')) cases.push({ name: '5,000-turn file', args: [manifest.files.turns5000.path] });
  if (want('tree')) cases.push({ name: `tree, ${manifest.tree.files} files`, args: [TREE.dir] });
  const samples = Object.fromEntries(Object.keys(builds).map((b) => [b, {}]));
  log(`# baseline ${o.baseline} against ${ROOT}, ${o.rounds} rounds, interleaved`);
  for (let round_ = 0; round_ < o.rounds; round_++) {
    const order = round_ % 2 ? ['current', 'baseline'] : ['baseline', 'current'];
    for (const c of cases) {
      for (const b of order) {
        const r = await runOnce(builds[b].cli, c.args, { cwd: OUT });
        if (r.code !== 0) fail(`${b} on ${c.name}: exit ${r.code}\n${r.stderr}`);
        (samples[b][c.name] ??= []).push({ wall: r.wall, cpu: r.cpu, rssKB: r.rssKB });
      }
    }
    if (want('lsp')) {
      for (const b of order) {
        target.lsp = builds[b].lsp;
        const l = await benchLsp(manifest.files.turns5000.path, 5);
        if (l.skipped) fail(`${b}: language server: ${l.skipped}`);
        (samples[b]['LSP edit -> diagnostics (5,000 turns)'] ??= []).push(...l.editToDiagnosticsMs.samples.map((ms) => ({ wall: ms / 1000 })));
        (samples[b]['LSP open -> diagnostics (5,000 turns)'] ??= []).push({ wall: l.openToDiagnosticsMs / 1000 });
      }
    }
    for (const b of order) {
      const file = manifest.files.turns5000.path;
      if (named('keystrokes')) guard[b].keystrokes.push(await keystrokesOnce(builds[b].lsp, manifest));
      if (named('first')) guard[b].first.push(await firstKeystrokes(builds[b].lsp, file));
      if (named('memory')) guard[b].memory.push(await memoryOnce(builds[b].lsp, file, 10_000));
    }
    log(`  round ${round_ + 1} of ${o.rounds}`);
  }
  const ms = (s) => `${(s * 1000).toFixed(s < 0.1 ? 1 : 0)} ms`;
  log('\n| measurement | baseline: wall (cpu), peak RSS | current: wall (cpu), peak RSS | change (wall) |');
  log('|---|---|---|---|');
  for (const name of Object.keys(samples.baseline)) {
    const fig = (b) => {
      const xs = samples[b][name];
      const wall = median(xs.map((x) => x.wall));
      const cpus = xs.map((x) => x.cpu).filter((x) => x != null);
      const rss = xs.map((x) => x.rssKB).filter((x) => x != null);
      return { wall, cpu: cpus.length ? median(cpus) : null, rssMB: rss.length ? median(rss) / 1024 : null, n: xs.length };
    };
    const a = fig('baseline');
    const c = fig('current');
    const cell = (x) => `${ms(x.wall)}${x.cpu != null ? ` (${ms(x.cpu)})` : ''}${x.rssMB != null ? `, ${x.rssMB.toFixed(1)} MB` : ''}`;
    const change = round((c.wall / a.wall - 1) * 100, 1);
    log(`| ${name} (median of ${a.n}) | ${cell(a)} | ${cell(c)} | ${change > 0 ? '+' : ''}${change}% |`);
  }
  logGuard(guard);
}

main().catch((e) => {
  process.stderr.write(`compare: ${e?.stack ?? e}\n`);
  process.exit(1);
});

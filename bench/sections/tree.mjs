// The 2,000-file tree: threads (--concurrency, also pinned to one core),
// MSGLINT_TIMING's phases, and --cache cold and warm.

import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { TREE } from '../generate.mjs';
import { bestOf, canPin, checkClean, runOnce } from '../lib/process.mjs';
import { MDL, NODE, OUT, ROOT, fmtMB, fmtS, log, round, target } from '../lib/util.mjs';

/** results.tree */
export async function treeSection(manifest, o) {
  log(`\n## tree (${manifest.tree.files} files, ${fmtMB(manifest.tree.bytes)})`);
  const help = spawnSync(NODE, [target.cli, '--help'], { cwd: ROOT, encoding: 'utf8' }).stdout;
  const hasConcurrency = /--concurrency\b/.test(help);
  const hasCache = /--cache\b/.test(help);
  const hasCacheLocation = /--cache-location\b/.test(help);
  const tree = { files: manifest.tree.files, bytes: manifest.tree.bytes };
  const opts = { runs: o.runs, bytes: manifest.tree.bytes, cwd: OUT };
  tree.default = await bestOf('msglint tree', target.cli, [TREE.dir], opts);
  if (hasConcurrency) {
    // Workers that lint nothing would be fast: check that every file is still linted.
    await checkClean('tree --concurrency 2', ['--concurrency', '2', TREE.dir], manifest.tree.files);
    tree.concurrency1 = await bestOf('msglint --concurrency 1 tree', target.cli, ['--concurrency', '1', TREE.dir], opts);
    tree.concurrency2 = await bestOf('msglint --concurrency 2 tree', target.cli, ['--concurrency', '2', TREE.dir], opts);
    tree.concurrencyAuto = await bestOf('msglint --concurrency auto tree', target.cli, ['--concurrency', 'auto', TREE.dir], opts);
    tree.concurrencySpeedup = round(tree.concurrency1.best / tree.concurrency2.best, 2);
    tree.concurrencyAutoSpeedup = round(tree.concurrency1.best / tree.concurrencyAuto.best, 2);
    log(`  --concurrency 1 / 2: ${tree.concurrencySpeedup}x, 1 / auto: ${tree.concurrencyAutoSpeedup}x`);
    // The same commands on one core: what the second core gives each of them.
    if (canPin()) {
      tree.oneCore1 = await bestOf('msglint --concurrency 1 tree, one core', target.cli, ['--concurrency', '1', TREE.dir], { ...opts, pin: true });
      tree.oneCore2 = await bestOf('msglint --concurrency 2 tree, one core', target.cli, ['--concurrency', '2', TREE.dir], { ...opts, pin: true });
      tree.coresSpeedup1 = round(tree.oneCore1.best / tree.concurrency1.best, 2);
      tree.coresSpeedup2 = round(tree.oneCore2.best / tree.concurrency2.best, 2);
      log(`  2 cores / 1 core: --concurrency 1 ${tree.coresSpeedup1}x, --concurrency 2 ${tree.coresSpeedup2}x`);
    }
    const timing = await treeTiming(opts.runs);
    if (timing) {
      tree.timing = timing;
      // Amdahl: the serial part of the one-thread run stays; the rest, split perfectly, halves.
      const serial = timing.threads1.serialS;
      tree.timing.bound2 = round(tree.concurrency1.best / (serial + (tree.concurrency1.best - serial) / 2), 2);
      log(
        `  MSGLINT_TIMING: serial part (start-up, discovery, report, exit) ${fmtS(serial)} of the --concurrency 1 run; ` +
          `two threads that split the rest perfectly would be at most ${tree.timing.bound2}x faster. ` +
          `Parsing and rules per file: ${timing.perFileSlowdown}x as long on each of two threads as on one.`,
      );
    }
  } else {
    tree.concurrency = 'not supported yet';
    log('  --concurrency: not supported yet');
  }
  if (hasCache) {
    const cachePath = path.join(OUT, '.msglintcache');
    const cacheArgs = ['--cache', ...(hasCacheLocation ? ['--cache-location', cachePath] : []), TREE.dir];
    const clear = () => {
      for (const p of [cachePath, path.join(OUT, TREE.dir, '.msglintcache')]) rmSync(p, { recursive: true, force: true });
    };
    tree.cacheCold = await bestOf('msglint --cache tree (first run)', target.cli, cacheArgs, { ...opts, before: clear });
    clear();
    await runOnce(target.cli, cacheArgs, { cwd: OUT }); // fill the cache
    tree.cacheWarm = await bestOf('msglint --cache tree (second run)', target.cli, cacheArgs, opts);
    tree.cacheSpeedup = round(tree.cacheCold.best / tree.cacheWarm.best, 2);
    // A warm run must still report every file.
    await checkClean('tree --cache (second run)', ['--cache', ...cacheArgs.slice(1)], manifest.tree.files);
    clear();
    log(`  --cache first / second run: ${tree.cacheSpeedup}x`);
  } else {
    tree.cache = 'not supported yet';
    log('  --cache: not supported yet');
  }
  if (o.full) {
    tree.markdownlint = await bestOf('markdownlint tree (1 run)', MDL, [TREE.dir], { ...opts, runs: 1, okCodes: [0, 1] });
    tree.markdownlint.findings = tree.markdownlint.outputLines;
    tree.ratio = round(tree.markdownlint.best / tree.default.best, 1);
    log(`  markdownlint / msglint on the tree: ${tree.ratio}x`);
  }
  for (const v of Object.values(tree)) if (v && typeof v === 'object') delete v.outputLines;
  return tree;
}

/**
 * The tree with MSGLINT_TIMING, on 1 and 2 threads: the phases of the run
 * whose lint phase was shortest, and the time parsing and rules took, summed
 * over threads. Undefined when this msglint has no MSGLINT_TIMING.
 */
async function treeTiming(runs) {
  const one = async (threads) => {
    let best;
    for (let i = 0; i < runs; i++) {
      const r = await runOnce(target.cli, ['--concurrency', String(threads), TREE.dir], { cwd: OUT, extraEnv: { MSGLINT_TIMING: '1' } });
      const phase = (name) => Number(new RegExp(`^${name} +\\| +([0-9.]+) \\|`, 'm').exec(r.stderr)?.[1]);
      const engine = Number(/^Parsing and rules: ([0-9.]+) ms/m.exec(r.stderr)?.[1]);
      const lint = phase('lint');
      if (r.code !== 0 || !(lint > 0) || !(engine > 0)) return undefined;
      const t = {
        wallS: round(r.wall),
        startupMs: phase('start-up'),
        discoveryMs: phase('discovery'),
        lintMs: lint,
        reportMs: phase('report'),
        serialS: round(r.wall - lint / 1000),
        engineMs: engine,
      };
      if (!best || t.lintMs < best.lintMs) best = t;
    }
    return best;
  };
  const threads1 = await one(1);
  const threads2 = threads1 && (await one(2));
  if (!threads2) return undefined;
  return { threads1, threads2, perFileSlowdown: round(threads2.engineMs / threads1.engineMs, 2) };
}

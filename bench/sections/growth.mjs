// Linear growth: the 5,000-cell file against the 50,000-cell file, and the
// crafted shapes of issues 35 and 46 (bench/lib/crafted.mjs) at n and 4n.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CRAFTED } from '../lib/crafted.mjs';
import { startServer } from '../lib/lsp-session.mjs';
import { bestOf } from '../lib/process.mjs';
import { OUT, fmtS, log, round, target } from '../lib/util.mjs';

/** The goal for a crafted shape: 4n takes at most this many times n (linear is 4, n log n a little more). */
export const CRAFTED_RATIO_GOAL = 5;

/** results.growth; `startup` (results.startup) gives the ratio without start-up. */
export async function growthSection(manifest, o, startup) {
  log('\n## growth (5,000 cells vs 50,000 cells)');
  const small = manifest.files.cells5000;
  const large = manifest.files.cells50000;
  const a = await bestOf(`msglint ${small.file}`, target.cli, [small.path], { runs: o.runs, bytes: small.bytes, cwd: OUT });
  const b = await bestOf(`msglint ${large.file}`, target.cli, [large.path], { runs: o.runs, bytes: large.bytes, cwd: OUT });
  delete a.outputLines;
  delete b.outputLines;
  const s = startup?.best ?? 0;
  const growth = {
    cells5000: a,
    cells50000: b,
    ratio: round(b.best / a.best, 2),
    ratioWithoutStartup: round((b.best - s) / Math.max(a.best - s, 1e-3), 2),
  };
  log(`  50k / 5k: ${growth.ratio}x  (${growth.ratioWithoutStartup}x without the ${fmtS(s)} start-up)`);
  growth.crafted = await craftedGrowth(o, s);
  return growth;
}

/**
 * Each crafted shape at n and 4n: the command's whole run (start-up taken
 * off: lint, or `msglint import` of an `import` shape), or the language
 * server's formatting request. A shape whose path is
 * still quadratic takes 16 times as long at 4n; the runs are few (at most 3)
 * because such a shape takes seconds.
 */
async function craftedGrowth(o, startup) {
  log(`\n## growth of crafted files (issues 35, 46): n vs 4n, goal ≤ ${CRAFTED_RATIO_GOAL}x`);
  const dir = path.join(OUT, 'crafted');
  mkdirSync(dir, { recursive: true });
  const runs = Math.min(o.runs, 3);
  const results = {};
  for (const shape of CRAFTED) {
    const times = [];
    for (const n of [shape.n, 4 * shape.n]) {
      // A tree shape is a folder, linted whole.
      const file = path.join(dir, `${shape.name}-${n}${shape.tree ? '' : `.${shape.ext ?? 'msg.md'}`}`);
      const text = shape.make(n);
      const bytes = shape.tree ? writeTree(file, text) : (writeFileSync(file, text), text.length);
      if (shape.where === 'lsp') times.push(await formattingTime(file, text, runs, `formatting ${path.basename(file)}`));
      else if (shape.where === 'import') {
        const r = await bestOf(`msglint import ${path.basename(file)}`, target.cli, ['import', file], { runs, bytes, cwd: OUT });
        times.push(Math.max(r.best - startup, 1e-3));
      } else {
        // Exit 1: these files have lint errors by design.
        const r = await bestOf(`msglint ${path.basename(file)}`, target.cli, [file], { runs, okCodes: [0, 1], bytes, cwd: OUT });
        times.push(Math.max(r.best - startup, 1e-3));
      }
    }
    const ratio = round(times[1] / times[0], 2);
    results[shape.name] = { n: shape.n, seconds: times.map((t) => round(t)), ratio, owner: shape.owner };
    log(`  ${shape.name.padEnd(16)} n=${shape.n}: ${fmtS(times[0])}, 4n: ${fmtS(times[1])}, ratio ${ratio}x${ratio > CRAFTED_RATIO_GOAL ? `  (over the goal; ${shape.owner})` : ''}`);
  }
  return results;
}

/** Writes `files` (path to text) under `dir`; how many characters they hold. */
function writeTree(dir, files) {
  let size = 0;
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
    size += text.length;
  }
  return size;
}

/** Best of `runs`: seconds from textDocument/formatting sent to answered, on a freshly opened document each time. */
async function formattingTime(file, text, runs, label) {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const session = await startServer(target.lsp);
    if (session.skipped) {
      log(`  ${label}: skipped (${session.skipped})`);
      return NaN;
    }
    try {
      const uri = await session.open(file, text);
      await session.diagnostics(uri);
      const t = performance.now();
      await session.withTimeout(session.request('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } }), 600_000, label);
      best = Math.min(best, (performance.now() - t) / 1000);
    } finally {
      await session.stop();
    }
  }
  return best;
}

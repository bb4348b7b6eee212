// Linear growth: the 5,000-cell file against the 50,000-cell file.

import { bestOf } from '../lib/process.mjs';
import { OUT, fmtS, log, round, target } from '../lib/util.mjs';

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
  return growth;
}

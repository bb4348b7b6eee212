// Peak memory of the command against the size of the file (issue 46, point
// 2): a realistic conversation of about 50 MB, linted and exported to each
// target, against the goal of 10 times the file; and crafted files whose
// memory grew without bound (empty cells, a metadata line of a million
// attributes), at n and 4n. One run each: peak RSS varies little from run to
// run, and these files take seconds to minutes.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateMessageFile } from '../generate.mjs';
import { runOnce } from '../lib/process.mjs';
import { OUT, fmtMB, fmtS, log, round, target } from '../lib/util.mjs';

/** Peak RSS of a command on the realistic file, at most this many times the file's size. */
export const MEMORY_RATIO_GOAL = 10;
/** About 50 MB with bench/generate.mjs (about 1.39 kB per turn). */
export const MEMORY_TURNS = 36_500;
export const EXPORT_TARGETS = ['openai', 'anthropic', 'vercel', 'vercel-legacy', 'context-json', 'console'];

/** The crafted files: name, how one of size n is made, n. */
const CRAFTED = [
  { name: 'empty cells', make: (n) => '# %%\n'.repeat(n), n: 50_000 },
  { name: 'attributes', make: (n) => `# %% Hi[^1]\n\n[^1]: [markdown] ${'a=1 '.repeat(n)}\n\nHello.\n`, n: 100_000 },
];

async function peak(label, args, bytes, okCodes = [0, 1]) {
  const r = await runOnce(target.cli, args, { cwd: OUT, timeoutMs: 30 * 60_000 });
  if (r.signal || !okCodes.includes(r.code)) throw new Error(`${label}: exit ${r.signal ?? r.code}\n${r.stderr.trim().split('\n').slice(0, 10).join('\n')}`);
  const mb = r.rssKB ? round(r.rssKB / 1024, 1) : null;
  const ratio = mb != null ? round((mb * 1024 * 1024) / bytes, 1) : null;
  log(`  ${label.padEnd(34)} ${fmtS(r.wall).padStart(8)}  peak RSS ${String(mb ?? '?').padStart(7)} MB  ${ratio ?? '?'}x the file${ratio != null && bytes > 1e7 ? (ratio <= MEMORY_RATIO_GOAL ? '  (goal ≤ 10x: pass)' : '  (goal ≤ 10x: FAIL)') : ''}`);
  return { seconds: round(r.wall, 2), peakRssMB: mb, ratio, exit: r.code };
}

/** results.memory */
export async function memorySection() {
  const dir = path.join(OUT, 'memory');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `turns${MEMORY_TURNS}.msg.md`);
  const text = generateMessageFile({ turns: MEMORY_TURNS, seed: 46 });
  writeFileSync(file, text);
  const bytes = Buffer.byteLength(text);
  log(`\n## peak memory against the file (issue 46): ${MEMORY_TURNS.toLocaleString('en-US')} turns, ${fmtMB(bytes)}, goal ≤ ${MEMORY_RATIO_GOAL}x`);
  const realistic = { file: path.basename(file), bytes, lint: await peak('msglint FILE', [file], bytes, [0]) };
  realistic.export = {};
  for (const to of EXPORT_TARGETS) realistic.export[to] = await peak(`msglint export FILE --to ${to}`, ['export', file, '--to', to], bytes, [0]);
  log('\n## peak memory of crafted files at n and 4n');
  const crafted = {};
  for (const shape of CRAFTED) {
    crafted[shape.name] = [];
    for (const n of [shape.n, 4 * shape.n]) {
      const f = path.join(dir, `${shape.name.replace(/ /g, '-')}-${n}.msg.md`);
      const t = shape.make(n);
      writeFileSync(f, t);
      crafted[shape.name].push({ n, bytes: t.length, ...(await peak(`${shape.name}, n = ${n.toLocaleString('en-US')} (${fmtMB(t.length)})`, [f], t.length)) });
    }
  }
  return { goal: MEMORY_RATIO_GOAL, realistic, crafted };
}

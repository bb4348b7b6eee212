#!/usr/bin/env node
// CPU profile of one whole msglint CLI run: the functions with the most self
// time. Runs `node --cpu-prof dist/cli/main.js FILE...` (the corpora
// come from `npm run bench` or `node bench/generate.mjs`), keeps the
// .cpuprofile in bench/out/profiles/ (open it in Chrome DevTools or VS Code)
// and prints the top functions.
//
// usage: node bench/profile.mjs [--top N] [FILE...]
//   default FILE: bench/out/turns-5000.msg.md; --top: 15

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH);
const OUT = path.join(BENCH, 'out');
const CLI = path.join(ROOT, 'dist/cli/main.js');

const argv = process.argv.slice(2);
let top = 15;
const files = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--top') top = Number(argv[++i]);
  else files.push(path.resolve(argv[i]));
}
if (files.length === 0) files.push(path.join(OUT, 'turns-5000.msg.md'));
for (const f of files) {
  if (!existsSync(f)) {
    process.stderr.write(`profile: ${f} is missing: run npm run bench (or node bench/generate.mjs) first\n`);
    process.exit(1);
  }
}

const dir = path.join(OUT, 'profiles');
mkdirSync(dir, { recursive: true });
const before = new Set(readdirSync(dir));
const t0 = Date.now();
// cwd bench/out: its .git marker keeps the repository's .gitignore (which hides bench/out/) from applying.
const r = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, CLI, ...files], { cwd: OUT, stdio: ['ignore', 'ignore', 'inherit'] });
const wall = (Date.now() - t0) / 1000;
if (r.status !== 0) process.stderr.write(`profile: msglint exited ${r.status}\n`);
const made = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && !before.has(f));
if (made.length === 0) {
  process.stderr.write('profile: no .cpuprofile was written\n');
  process.exit(1);
}
const file = path.join(dir, made.sort((a, b) => statSync(path.join(dir, b)).mtimeMs - statSync(path.join(dir, a)).mtimeMs)[0]);
const prof = JSON.parse(readFileSync(file, 'utf8'));

// Self time per node = the time deltas of the samples taken in it.
const selfUs = new Map();
for (let i = 0; i < prof.samples.length; i++) selfUs.set(prof.samples[i], (selfUs.get(prof.samples[i]) ?? 0) + (prof.timeDeltas[i] ?? 0));
const byFunction = new Map();
let total = 0;
for (const node of prof.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  total += us;
  const cf = node.callFrame;
  const where = cf.url ? `${cf.url.replace(`file://${ROOT}/`, '').replace(/^file:\/\//, '')}:${cf.lineNumber + 1}` : '';
  const key = `${cf.functionName || '(anonymous)'}\0${where}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
}
const rows = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top);
console.log(`msglint ${files.map((f) => path.relative(ROOT, f)).join(' ')}: ${wall.toFixed(2)} s wall under the profiler, ${(total / 1000).toFixed(0)} ms sampled`);
console.log(`profile: ${path.relative(ROOT, file)}\n`);
console.log('| # | self ms | self % | function | location |');
console.log('|---|---|---|---|---|');
rows.forEach(([key, us], i) => {
  const [name, where] = key.split('\0');
  console.log(`| ${i + 1} | ${(us / 1000).toFixed(0)} | ${((100 * us) / total).toFixed(1)} | \`${name}\` | ${where} |`);
});

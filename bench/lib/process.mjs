// Whole processes, timed: wall time, CPU time and peak RSS of one run, best
// of N, and the check that a corpus lints clean before it is timed.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { BENCH, NODE, OUT, ROOT, fail, fmtS, log, median, round, target } from './util.mjs';

/** How peak RSS is read: GNU time's %M when it works here, else a preload that reports maxRSS on exit. */
export function rssMethod() {
  if (existsSync('/usr/bin/time')) {
    const probe = path.join(OUT, '.time-probe');
    const r = spawnSync('/usr/bin/time', ['-f', '%M', '-o', probe, NODE, '-e', ''], { stdio: 'ignore' });
    const kb = r.status === 0 && existsSync(probe) ? Number(readFileSync(probe, 'utf8').trim().split('\n').pop()) : NaN;
    rmSync(probe, { force: true });
    if (kb > 0) return 'time';
  }
  return 'preload';
}

/** Whether `taskset` can pin a process to one core here (Linux, util-linux). */
export function canPin() {
  return spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0;
}

/**
 * Runs `node script args` once as a whole process: wall time (spawn to exit,
 * measured here), peak RSS (KiB), exit code, stdout line count, stderr.
 * `pin`: on the first core only (taskset -c 0), as on a one-core machine.
 */
export function runOnce(script, args, { cwd = ROOT, timeoutMs = 15 * 60_000, nodeArgs = [], pin = false, extraEnv = {} } = {}) {
  return new Promise((resolve) => {
    const rssFile = path.join(OUT, `.rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
    let cmd;
    let argv;
    const env = { ...process.env, NO_COLOR: '1', ...extraEnv };
    delete env.FORCE_COLOR;
    const node = pin ? ['taskset', '-c', '0', NODE] : [NODE];
    if (target.rssMethod === 'time') {
      cmd = '/usr/bin/time';
      argv = ['-f', '%M %U %S', '-o', rssFile, ...node, ...nodeArgs, script, ...args];
    } else {
      cmd = node[0];
      argv = [...node.slice(1), '--import', pathToFileURL(path.join(BENCH, 'maxrss.mjs')).href, ...nodeArgs, script, ...args];
      env.BENCH_MAXRSS_FILE = rssFile;
    }
    let lines = 0;
    let stderr = '';
    const t0 = performance.now();
    const child = spawn(cmd, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => {
      for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
    });
    child.stderr.on('data', (d) => {
      if (stderr.length < 20_000) stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      const wall = (performance.now() - t0) / 1000;
      clearTimeout(timer);
      let rssKB = null;
      let cpu = null;
      try {
        // "maxRSS(KiB) user(s) system(s)"; GNU time puts a "Command exited with non-zero status" line first.
        const [m, u, sy] = readFileSync(rssFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
        if (m > 0) rssKB = m;
        if (u >= 0 && sy >= 0) cpu = u + sy;
      } catch {
        // no figure
      }
      rmSync(rssFile, { force: true });
      resolve({ wall, cpu, rssKB, code, signal, lines, stderr });
    });
  });
}

/**
 * Best of `runs` whole-process runs. `okCodes` are the exit codes that count
 * as a normal run; `before` runs before each run (untimed).
 */
export async function bestOf(label, script, args, { runs, okCodes = [0], before, cwd, timeoutMs, bytes, pin } = {}) {
  const walls = [];
  const cpus = [];
  let best;
  let peak = 0;
  for (let i = 0; i < runs; i++) {
    if (before) await before();
    const r = await runOnce(script, args, { cwd, timeoutMs, pin });
    if (r.signal || !okCodes.includes(r.code)) {
      throw new Error(`${label}: exit ${r.signal ?? r.code}${r.stderr ? `\n${r.stderr.trim().split('\n').slice(0, 15).join('\n')}` : ''}`);
    }
    walls.push(r.wall);
    if (r.cpu != null) cpus.push(r.cpu);
    if (r.rssKB) peak = Math.max(peak, r.rssKB);
    if (!best || r.wall < best.wall) best = r;
  }
  const out = {
    best: round(best.wall),
    median: round(median(walls)),
    runs: walls.map((w) => round(w)),
    // user + system CPU seconds of the best run by that measure: steadier than wall time on a busy machine
    cpu: cpus.length ? round(Math.min(...cpus), 2) : null,
    peakRssMB: peak ? round(peak / 1024, 1) : null,
    outputLines: best.lines,
  };
  if (bytes) out.mbPerS = round(bytes / 1e6 / best.wall, 2);
  log(`  ${label.padEnd(44)} best ${fmtS(out.best).padStart(8)}  median ${fmtS(out.median).padStart(8)}  cpu ${fmtS(out.cpu).padStart(8)}${out.mbPerS != null ? `  ${String(out.mbPerS).padStart(6)} MB/s` : ''}  RSS ${out.peakRssMB ?? '?'} MB`);
  return out;
}

/** Lints with `-f json` and aborts unless every expected file was linted and nothing was reported. */
export async function checkClean(label, args, expectedFiles, cwd = OUT) {
  const r = await new Promise((resolve) => {
    const child = spawn(NODE, [target.cli, '-f', 'json', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
  let report;
  try {
    report = JSON.parse(r.out);
  } catch {
    fail(`${label}: msglint -f json did not print JSON (exit ${r.code})\n${r.err.trim()}`);
  }
  const problems = report.filter((f) => f.messages.length > 0);
  if (r.code !== 0 || problems.length) {
    const lines = problems.flatMap((f) => f.messages.slice(0, 5).map((m) => `  ${path.relative(ROOT, f.filePath)}:${m.line}:${m.column} ${m.ruleId} ${m.message}`));
    fail(`${label}: the corpus must lint clean, but msglint exited ${r.code} and reported problems in ${problems.length} file(s):\n${lines.slice(0, 20).join('\n')}${r.err ? `\n${r.err.trim()}` : ''}\nFix bench/generate.mjs (or msglint).`);
  }
  if (report.length !== expectedFiles) {
    fail(`${label}: msglint linted ${report.length} file(s), expected ${expectedFiles}. Was the corpus skipped (ignored, not detected as a message file)?`);
  }
}

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
//   - the language server over stdio on the 5,000-turn file.
// Writes bench/results.json and bench/results.md and prints the tables.
//
// usage: node bench/run.mjs [--runs N] [--quick] [--full] [--no-build] [--only LIST]
//   --runs N      best of N runs (default 5; --quick: 1)
//   --quick       smoke run: 1 run, 3 LSP samples; results go to bench/out/
//                 (results-quick.json/.md) and leave bench/results.* alone
//   --full        also runs markdownlint on the 5,000-turn file (once; this
//                 takes minutes and gigabytes) and on the 2,000-file tree
//   --no-build    use dist/ as it is
//   --only LIST   comma-separated sections: cli,growth,tree,lsp
//                 (results then go to bench/out/ as with --quick)

import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CORPORA, GENERATOR_VERSION, TREE, generateAll } from './generate.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH);
const OUT = path.join(BENCH, 'out');
// After the build, dist/ is copied to bench/out/dist/ and measured there: the
// same files, but safe from a rebuild of dist/ while the bench runs (others
// may build in this work tree). Modules resolve node_modules and msglint's
// package.json by walking up, so the copy runs as dist/ does.
// BENCH_CLI / BENCH_LSP: measure another entry point (e.g. a stub to try the bench itself).
// BENCH_LSP_NODE_ARGS: node options for the language server (profiling, below).
let CLI = process.env.BENCH_CLI ? path.resolve(process.env.BENCH_CLI) : path.join(ROOT, 'dist/cli/main.js');
let LSP = process.env.BENCH_LSP ? path.resolve(process.env.BENCH_LSP) : path.join(ROOT, 'dist/server/lsp/main.js');
const MDL = path.join(BENCH, 'markdownlint-cli.mjs');
const NODE = process.execPath;

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
      for (const s of o.only) if (!['cli', 'growth', 'tree', 'lsp'].includes(s)) fail(`--only: unknown section ${s}`);
    } else if (a === '--help' || a === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else fail(`unknown option ${a}\n${USAGE}`);
  }
  o.runs ??= o.quick ? 1 : 5;
  o.lspSamples = o.quick ? 3 : 10;
  return o;
}

function fail(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(1);
}

const log = (s = '') => process.stdout.write(`${s}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x, d = 3) => (x === undefined || x === null || Number.isNaN(x) ? null : Math.round(x * 10 ** d) / 10 ** d);
const fmtS = (s) => (s == null ? '–' : s < 1 ? `${(s * 1000).toFixed(0)} ms` : `${s.toFixed(2)} s`);
const fmtMs = (ms) => (ms == null ? '–' : `${ms < 10 ? ms.toFixed(1) : ms.toFixed(0)} ms`);
const fmtMB = (b) => `${(b / 1e6).toFixed(2)} MB`;

// ---------------------------------------------------------------- processes

/** How peak RSS is read: GNU time's %M when it works here, else a preload that reports maxRSS on exit. */
function rssMethod() {
  if (existsSync('/usr/bin/time')) {
    const probe = path.join(OUT, '.time-probe');
    const r = spawnSync('/usr/bin/time', ['-f', '%M', '-o', probe, NODE, '-e', ''], { stdio: 'ignore' });
    const kb = r.status === 0 && existsSync(probe) ? Number(readFileSync(probe, 'utf8').trim().split('\n').pop()) : NaN;
    rmSync(probe, { force: true });
    if (kb > 0) return 'time';
  }
  return 'preload';
}

let RSS_METHOD = 'preload';

/** Whether `taskset` can pin a process to one core here (Linux, util-linux). */
function canPin() {
  return spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0;
}

/**
 * Runs `node script args` once as a whole process: wall time (spawn to exit,
 * measured here), peak RSS (KiB), exit code, stdout line count, stderr.
 * `pin`: on the first core only (taskset -c 0), as on a one-core machine.
 */
function runOnce(script, args, { cwd = ROOT, timeoutMs = 15 * 60_000, nodeArgs = [], pin = false, extraEnv = {} } = {}) {
  return new Promise((resolve) => {
    const rssFile = path.join(OUT, `.rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
    let cmd;
    let argv;
    const env = { ...process.env, NO_COLOR: '1', ...extraEnv };
    delete env.FORCE_COLOR;
    const node = pin ? ['taskset', '-c', '0', NODE] : [NODE];
    if (RSS_METHOD === 'time') {
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
 * The tree with MSGLINT_TIMING, on 1 and 2 threads: the phases of the run
 * whose lint phase was shortest, and the time parsing and rules took, summed
 * over threads. Undefined when this msglint has no MSGLINT_TIMING.
 */
async function treeTiming(runs) {
  const one = async (threads) => {
    let best;
    for (let i = 0; i < runs; i++) {
      const r = await runOnce(CLI, ['--concurrency', String(threads), TREE.dir], { cwd: OUT, extraEnv: { MSGLINT_TIMING: '1' } });
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

/**
 * Best of `runs` whole-process runs. `okCodes` are the exit codes that count
 * as a normal run; `before` runs before each run (untimed).
 */
async function bestOf(label, script, args, { runs, okCodes = [0], before, cwd, timeoutMs, bytes, pin } = {}) {
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

// ---------------------------------------------------------------- checks

/** Lints with `-f json` and aborts unless every expected file was linted and nothing was reported. */
async function checkClean(label, args, expectedFiles, cwd = OUT) {
  const r = await new Promise((resolve) => {
    const child = spawn(NODE, [CLI, '-f', 'json', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
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

// ---------------------------------------------------------------- language server

async function benchLsp(file, samples) {
  let lsp;
  try {
    lsp = (await import('vscode-languageserver-protocol/node')).default;
  } catch (e) {
    return { skipped: `vscode-languageserver-protocol is not installed (${e.message.split('\n')[0]})` };
  }
  if (!existsSync(LSP)) return { skipped: `${path.relative(ROOT, LSP)} is missing` };
  const text = readFileSync(file, 'utf8');
  const uri = pathToFileURL(file).href;
  const lines = text.split('\n');
  const mid = lines.length >> 1;
  // The reply metadata line nearest the middle: hover on the agent name, complete after `[`.
  let metaLine = -1;
  for (let d = 0; d < lines.length && metaLine === -1; d++) {
    for (const l of [mid + d, mid - d]) if (/^\[\^\d+\]: \[coder\]/.test(lines[l] ?? '')) metaLine = l;
  }
  // A prose line of a user message near the middle: the edits type there.
  let proseLine = -1;
  for (let l = mid; l < lines.length && proseLine === -1; l++) {
    if (/^\[\^\d+\]: \[markdown\]/.test(lines[l]) && /^[A-Z]/.test(lines[l + 2] ?? '')) proseLine = l + 2;
  }
  if (metaLine === -1 || proseLine === -1) return { skipped: 'no reply metadata or prose line found in the middle of the file' };
  const bracket = lines[metaLine].indexOf('[coder]');
  const hoverPos = { line: metaLine, character: bracket + 3 };
  const completionPos = { line: metaLine, character: bracket + 1 };

  // BENCH_LSP_NODE_ARGS: extra node options for the server (say, `--cpu-prof --cpu-prof-dir=/tmp/p` to profile it).
  const nodeArgs = (process.env.BENCH_LSP_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(NODE, [...nodeArgs, LSP, '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    if (stderr.length < 20_000) stderr += d;
  });
  let exited = null;
  const exitPromise = new Promise((r) => child.on('exit', (code, signal) => r((exited = { code, signal }))));
  child.on('error', () => {});
  child.stdin.on('error', () => {});
  const conn = lsp.createProtocolConnection(new lsp.StreamMessageReader(child.stdout), new lsp.StreamMessageWriter(child.stdin));
  conn.onError(() => {});
  const pushed = [];
  let pushWaiter = null;
  conn.onNotification('textDocument/publishDiagnostics', (p) => {
    if (p.uri !== uri) return;
    pushed.push(p);
    if (pushWaiter && pushWaiter.test(p)) {
      const w = pushWaiter;
      pushWaiter = null;
      w.resolve(p);
    }
  });
  conn.onNotification(() => {});
  // Server-to-client requests: answer configuration with "no settings", everything else with null.
  conn.onRequest((method, params) => (method === 'workspace/configuration' ? (params?.items ?? []).map(() => null) : null));
  conn.listen();

  const withTimeout = (p, ms, what) => {
    let timer;
    const expired = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
    });
    const died = exitPromise.then((e) => {
      throw new Error(`${what}: the server exited (${e.signal ?? e.code})`);
    });
    died.catch(() => {});
    return Promise.race([p, expired, died]).finally(() => clearTimeout(timer));
  };
  const stop = async () => {
    try {
      await withTimeout(conn.sendRequest('shutdown'), 5000, 'shutdown');
      await conn.sendNotification('exit');
    } catch {
      // killed below
    }
    await Promise.race([exitPromise, sleep(3000)]);
    if (!exited) child.kill('SIGKILL');
    conn.dispose();
  };

  const result = { file: path.relative(ROOT, file), bytes: Buffer.byteLength(text) };
  try {
    let init;
    try {
      init = await withTimeout(
        conn.sendRequest('initialize', {
          processId: process.pid,
          clientInfo: { name: 'msglint-bench' },
          rootUri: pathToFileURL(OUT).href,
          workspaceFolders: [{ uri: pathToFileURL(OUT).href, name: 'out' }],
          capabilities: {
            textDocument: {
              synchronization: { dynamicRegistration: false, didSave: true },
              diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
              publishDiagnostics: { versionSupport: true },
              completion: { completionItem: { snippetSupport: true } },
              hover: { contentFormat: ['markdown', 'plaintext'] },
            },
            workspace: {},
          },
        }),
        30_000,
        'initialize',
      );
      await conn.sendNotification('initialized', {});
    } catch (e) {
      await stop();
      return { skipped: `the language server did not initialize: ${e.message}${stderr ? ` (${stderr.trim().split('\n')[0]})` : ''}` };
    }
    const pull = !!init?.capabilities?.diagnosticProvider;
    result.diagnosticsMode = pull ? 'pull' : 'push';
    let version = 1;
    let resultId;

    /** The diagnostics of the current version: a pull, or the next push for this version. */
    const diagnosticsNow = async (what) => {
      if (pull) {
        const r = await withTimeout(conn.sendRequest('textDocument/diagnostic', { textDocument: { uri }, previousResultId: resultId }), 120_000, what);
        if (r?.resultId) resultId = r.resultId;
        return r?.kind === 'full' ? r.items : null;
      }
      const v = version;
      const seen = pushed.find((p) => p.version === v || p.version === undefined);
      if (seen) return seen.diagnostics;
      const p = await withTimeout(new Promise((resolve) => (pushWaiter = { test: (x) => x.version === v || x.version === undefined, resolve })), 120_000, what);
      return p.diagnostics;
    };
    const edit = async (line, character, newText, removeLength = 0) => {
      version++;
      pushed.length = 0;
      await conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ range: { start: { line, character }, end: { line, character: character + removeLength } }, text: newText }],
      });
    };

    // open -> first diagnostics
    let t0 = performance.now();
    await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version, text } });
    const first = await diagnosticsNow('first diagnostics');
    result.openToDiagnosticsMs = round(performance.now() - t0, 1);
    result.firstDiagnostics = first?.length ?? null;
    if (first?.length) result.warning = `the server reports ${first.length} diagnostic(s) on a clean file: ${first[0].message}`;

    // one-character edits, each followed by the diagnostics of the new version
    let col = lines[proseLine].length;
    const editMs = [];
    for (let i = 0; i < samples; i++) {
      await sleep(30); // a typist's pause: no work of the previous keystroke left over
      t0 = performance.now();
      await edit(proseLine, col, 'x');
      await diagnosticsNow(`diagnostics after edit ${i + 1}`);
      editMs.push(performance.now() - t0);
      col++;
    }
    result.editToDiagnosticsMs = { median: round(median(editMs), 1), max: round(Math.max(...editMs), 1), samples: editMs.map((x) => round(x, 1)) };

    // completion and hover on the current (already analysed) version
    const timeRequest = async (method, params) => {
      const ms = [];
      let last;
      for (let i = 0; i < samples; i++) {
        t0 = performance.now();
        last = await withTimeout(conn.sendRequest(method, params), 60_000, method);
        ms.push(performance.now() - t0);
      }
      return { median: round(median(ms), 1), max: round(Math.max(...ms), 1), samples: ms.map((x) => round(x, 1)), last };
    };
    const comp = await timeRequest('textDocument/completion', { textDocument: { uri }, position: completionPos, context: { triggerKind: 2, triggerCharacter: '[' } });
    const items = Array.isArray(comp.last) ? comp.last.length : comp.last?.items?.length ?? 0;
    delete comp.last;
    result.completionMs = { ...comp, items, position: completionPos };
    const hov = await timeRequest('textDocument/hover', { textDocument: { uri }, position: hoverPos });
    const hoverFound = !!hov.last;
    delete hov.last;
    result.hoverMs = { ...hov, found: hoverFound, position: hoverPos };

    // completion right after a keystroke (the document changed, nothing analysed yet)
    const afterEdit = [];
    for (let i = 0; i < samples; i++) {
      await sleep(30);
      t0 = performance.now();
      await edit(proseLine, col, 'x');
      await withTimeout(conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: completionPos, context: { triggerKind: 1 } }), 60_000, 'completion');
      afterEdit.push(performance.now() - t0);
      col++;
      if (!pull) await diagnosticsNow('push after edit'); // let the debounced push settle
    }
    result.editToCompletionMs = { median: round(median(afterEdit), 1), max: round(Math.max(...afterEdit), 1) };

    // sanity: a deliberate error must be reported, or the figures above measured nothing
    await edit(metaLine, bracket + 1, 'cdoer', 5);
    const broken = await diagnosticsNow('diagnostics of a broken file');
    result.reportsErrors = !!broken?.length;
    if (!result.reportsErrors) result.warning = 'the server reported nothing for a deliberate error ([cdoer]): the latencies may measure no linting';

    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
      if (hwm) result.serverPeakRssMB = round(Number(hwm[1]) / 1024, 1);
    } catch {
      // not Linux
    }
  } catch (e) {
    await stop();
    return { ...result, skipped: `the language server failed: ${e.message}${stderr ? `\n${stderr.trim().split('\n').slice(0, 10).join('\n')}` : ''}` };
  }
  await stop();
  return result;
}

// ---------------------------------------------------------------- main

async function main() {
  const o = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const section = (s) => !o.only || o.only.has(s);
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
  if (!process.env.BENCH_CLI) CLI = path.join(snapshot, 'cli/main.js');
  if (!process.env.BENCH_LSP) LSP = path.join(snapshot, 'server/lsp/main.js');
  log(`  measuring a copy of dist/ in ${path.relative(ROOT, snapshot)}/`);
  RSS_METHOD = process.env.BENCH_RSS === 'preload' ? 'preload' : rssMethod();

  log('\n## corpora');
  let t = performance.now();
  const manifest = generateAll(OUT);
  log(`  generated in ${fmtS((performance.now() - t) / 1000)} (bench/generate.mjs v${GENERATOR_VERSION}) into ${path.relative(ROOT, OUT)}/`);
  for (const [key, f] of Object.entries(manifest.files)) log(`  ${key.padEnd(11)} ${fmtMB(f.bytes).padStart(9)}  ${f.file}`);
  log(`  tree        ${fmtMB(manifest.tree.bytes).padStart(9)}  ${manifest.tree.files} files under ${TREE.dir}/`);
  t = performance.now();
  for (const [key, f] of Object.entries(manifest.files)) {
    if ((key === 'turns1000' || key === 'turns5000') && !section('cli') && !(key === 'turns5000' && section('lsp'))) continue;
    if (key.startsWith('cells') && !section('growth')) continue;
    await checkClean(f.file, [f.path], 1);
  }
  if (section('tree')) await checkClean('tree', [TREE.dir], manifest.tree.files);
  log(`  msglint reports nothing on them (checked in ${fmtS((performance.now() - t) / 1000)})`);

  const rulesJson = spawnSync(NODE, [CLI, 'rules', '--format', 'json'], { cwd: ROOT, encoding: 'utf8' });
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
    peakRssMethod: RSS_METHOD === 'time' ? '/usr/bin/time -f %M' : 'process.resourceUsage().maxRSS (preload)',
    msglint: { version: versionOf(CLI, ['--version']), rules },
    markdownlint: { version: mdlVersion, config: 'default (every rule on)' },
    corpora: {
      generatorVersion: GENERATOR_VERSION,
      ...Object.fromEntries(Object.entries(manifest.files).map(([k, f]) => [k, { file: f.file, bytes: f.bytes, sha256: f.sha256, ...(f.turns ? { turns: f.turns } : { cells: f.cells }) }])),
      tree: { dir: TREE.dir, files: manifest.tree.files, bytes: manifest.tree.bytes, sha256: manifest.tree.sha256 },
    },
  };

  // ---- CLI against markdownlint
  log('\n## startup');
  results.startup = await bestOf('msglint --version', CLI, ['--version'], { runs: o.runs });
  delete results.startup.outputLines;
  if (section('cli')) {
    log('\n## CLI, whole process (msglint vs markdownlint)');
    results.cli = {};
    for (const key of ['turns1000', 'turns5000']) {
      const f = manifest.files[key];
      const entry = { file: f.file, bytes: f.bytes };
      entry.msglint = await bestOf(`msglint ${f.file}`, CLI, [f.path], { runs: o.runs, bytes: f.bytes, cwd: OUT });
      if (key === 'turns1000' || o.full) {
        const runs = key === 'turns1000' ? o.runs : 1;
        entry.markdownlint = await bestOf(`markdownlint ${f.file}${runs === 1 && o.runs > 1 ? ' (1 run)' : ''}`, MDL, [f.path], {
          runs,
          okCodes: [0, 1],
          bytes: f.bytes,
          cwd: OUT,
        });
        entry.markdownlint.findings = entry.markdownlint.outputLines;
        delete entry.markdownlint.outputLines;
        entry.ratio = round(entry.markdownlint.best / entry.msglint.best, 1);
        if (entry.markdownlint.cpu && entry.msglint.cpu) entry.ratioCpu = round(entry.markdownlint.cpu / entry.msglint.cpu, 1);
        log(`  markdownlint / msglint: ${entry.ratio}x wall, ${entry.ratioCpu ?? '?'}x cpu  (markdownlint reports ${entry.markdownlint.findings} findings)`);
      } else {
        entry.markdownlint = { skipped: 'minutes and gigabytes; run with --full' };
      }
      delete entry.msglint.outputLines;
      results.cli[key] = entry;
    }
  }

  // ---- growth
  if (section('growth')) {
    log('\n## growth (5,000 cells vs 50,000 cells)');
    const small = manifest.files.cells5000;
    const large = manifest.files.cells50000;
    const a = await bestOf(`msglint ${small.file}`, CLI, [small.path], { runs: o.runs, bytes: small.bytes, cwd: OUT });
    const b = await bestOf(`msglint ${large.file}`, CLI, [large.path], { runs: o.runs, bytes: large.bytes, cwd: OUT });
    delete a.outputLines;
    delete b.outputLines;
    const s = results.startup?.best ?? 0;
    results.growth = {
      cells5000: a,
      cells50000: b,
      ratio: round(b.best / a.best, 2),
      ratioWithoutStartup: round((b.best - s) / Math.max(a.best - s, 1e-3), 2),
    };
    log(`  50k / 5k: ${results.growth.ratio}x  (${results.growth.ratioWithoutStartup}x without the ${fmtS(s)} start-up)`);
  }

  // ---- tree: concurrency and cache
  if (section('tree')) {
    log(`\n## tree (${manifest.tree.files} files, ${fmtMB(manifest.tree.bytes)})`);
    const help = spawnSync(NODE, [CLI, '--help'], { cwd: ROOT, encoding: 'utf8' }).stdout;
    const hasConcurrency = /--concurrency\b/.test(help);
    const hasCache = /--cache\b/.test(help);
    const hasCacheLocation = /--cache-location\b/.test(help);
    const tree = { files: manifest.tree.files, bytes: manifest.tree.bytes };
    const opts = { runs: o.runs, bytes: manifest.tree.bytes, cwd: OUT };
    tree.default = await bestOf('msglint tree', CLI, [TREE.dir], opts);
    if (hasConcurrency) {
      // Workers that lint nothing would be fast: check that every file is still linted.
      await checkClean('tree --concurrency 2', ['--concurrency', '2', TREE.dir], manifest.tree.files);
      tree.concurrency1 = await bestOf('msglint --concurrency 1 tree', CLI, ['--concurrency', '1', TREE.dir], opts);
      tree.concurrency2 = await bestOf('msglint --concurrency 2 tree', CLI, ['--concurrency', '2', TREE.dir], opts);
      tree.concurrencyAuto = await bestOf('msglint --concurrency auto tree', CLI, ['--concurrency', 'auto', TREE.dir], opts);
      tree.concurrencySpeedup = round(tree.concurrency1.best / tree.concurrency2.best, 2);
      tree.concurrencyAutoSpeedup = round(tree.concurrency1.best / tree.concurrencyAuto.best, 2);
      log(`  --concurrency 1 / 2: ${tree.concurrencySpeedup}x, 1 / auto: ${tree.concurrencyAutoSpeedup}x`);
      // The same commands on one core: what the second core gives each of them.
      if (canPin()) {
        tree.oneCore1 = await bestOf('msglint --concurrency 1 tree, one core', CLI, ['--concurrency', '1', TREE.dir], { ...opts, pin: true });
        tree.oneCore2 = await bestOf('msglint --concurrency 2 tree, one core', CLI, ['--concurrency', '2', TREE.dir], { ...opts, pin: true });
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
      tree.cacheCold = await bestOf('msglint --cache tree (first run)', CLI, cacheArgs, { ...opts, before: clear });
      clear();
      await runOnce(CLI, cacheArgs, { cwd: OUT }); // fill the cache
      tree.cacheWarm = await bestOf('msglint --cache tree (second run)', CLI, cacheArgs, opts);
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
    results.tree = tree;
  }

  // ---- language server
  if (section('lsp')) {
    log('\n## language server (stdio, 5,000-turn file)');
    const r = await benchLsp(manifest.files.turns5000.path, o.lspSamples);
    results.lsp = r;
    if (r.skipped) log(`  skipped: ${r.skipped}`);
    else {
      log(`  diagnostics: ${r.diagnosticsMode}`);
      log(`  open -> diagnostics            ${fmtMs(r.openToDiagnosticsMs)}`);
      log(`  edit -> diagnostics            median ${fmtMs(r.editToDiagnosticsMs.median)}, max ${fmtMs(r.editToDiagnosticsMs.max)}`);
      log(`  completion                     median ${fmtMs(r.completionMs.median)}, max ${fmtMs(r.completionMs.max)} (${r.completionMs.items} items)`);
      log(`  hover                          median ${fmtMs(r.hoverMs.median)}, max ${fmtMs(r.hoverMs.max)}${r.hoverMs.found ? '' : ' (no hover)'}`);
      log(`  edit -> completion             median ${fmtMs(r.editToCompletionMs.median)}, max ${fmtMs(r.editToCompletionMs.max)}`);
      if (r.serverPeakRssMB) log(`  server peak RSS                ${r.serverPeakRssMB} MB`);
      if (r.warning) log(`  warning: ${r.warning}`);
    }
  }

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

// ---------------------------------------------------------------- goals and report

function goals(r) {
  const g = [];
  const add = (goal, target, value, pass, note) => g.push({ goal, target, value, pass, ...(note ? { note } : {}) });
  const t1 = r.cli?.turns1000;
  if (t1?.ratio != null) add('CLI vs markdownlint, 1,000-turn file', '≥ 20x faster', `${t1.ratio}x`, t1.ratio >= 20);
  else add('CLI vs markdownlint, 1,000-turn file', '≥ 20x faster', null, null, 'not run');
  const t5 = r.cli?.turns5000?.msglint;
  add('5,000-turn file, whole process', '< 1.5 s', t5 ? fmtS(t5.best) : null, t5 ? t5.best < 1.5 : null, t5 ? undefined : 'not run');
  add('5,000-turn file, peak RSS', '< 400 MB', t5?.peakRssMB != null ? `${t5.peakRssMB} MB` : null, t5?.peakRssMB != null ? t5.peakRssMB < 400 : null, t5 ? undefined : 'not run');
  const gr = r.growth;
  add('Growth, 50,000 / 5,000 cells', '≤ 12x', gr ? `${gr.ratio}x` : null, gr ? gr.ratio <= 12 : null, gr ? undefined : 'not run');
  const l = r.lsp;
  const lspNote = !l ? 'not run' : l.skipped ? `skipped: ${l.skipped.split('\n')[0]}` : l.reportsErrors === false ? 'suspect: no diagnostics for a deliberate error' : undefined;
  const ok = l && !l.skipped;
  add('LSP edit -> diagnostics, median', '< 50 ms', ok ? fmtMs(l.editToDiagnosticsMs.median) : null, ok ? l.editToDiagnosticsMs.median < 50 : null, lspNote);
  add('LSP completion, median', '< 20 ms', ok ? fmtMs(l.completionMs.median) : null, ok ? l.completionMs.median < 20 : null, lspNote);
  add('LSP hover, median', '< 20 ms', ok ? fmtMs(l.hoverMs.median) : null, ok ? l.hoverMs.median < 20 : null, lspNote);
  const tr = r.tree;
  const trNote = (k) => (!tr ? 'not run' : typeof tr[k] === 'string' ? tr[k] : undefined);
  add('--concurrency 2 vs 1, 2,000 files', '≥ 1.6x', tr?.concurrencySpeedup != null ? `${tr.concurrencySpeedup}x` : null, tr?.concurrencySpeedup != null ? tr.concurrencySpeedup >= 1.6 : null, trNote('concurrency'));
  add('--cache second vs first run', '≥ 5x', tr?.cacheSpeedup != null ? `${tr.cacheSpeedup}x` : null, tr?.cacheSpeedup != null ? tr.cacheSpeedup >= 5 : null, trNote('cache'));
  return g;
}

function renderMarkdown(r) {
  const m = r.machine;
  const out = [];
  out.push(`Benchmark of msglint ${r.msglint.version} against markdownlint ${r.markdownlint.version} (default config), ${r.date.slice(0, 10)}.`);
  // The load average counts the benchmark's own processes (a msglint run
  // keeps about 1.5 cores busy, markdownlint about 1.2) and lags by about a
  // minute, so only a high load at the start says the machine was busy.
  const busy = r.loadAverage.start[0] > m.cores;
  out.push(
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}; 1-minute load average ${r.loadAverage.start[0]} at the start, ${r.loadAverage.during.mean} (max ${r.loadAverage.during.max}) during the run (it counts the benchmark's own processes)${busy ? ': **the machine was busy when the run started, wall times may be inflated** (CPU times are steadier)' : ''}.`,
  );
  out.push(`Whole processes, best of ${r.options.runs}${r.options.quick ? ' (quick run)' : ''}: wall time (user + system CPU time), MB/s of wall time, peak RSS by ${r.peakRssMethod}.`);
  out.push('');
  const rows = [];
  const cell = (x) => `${fmtS(x.best)} (${fmtS(x.cpu)}) · ${x.mbPerS} MB/s · ${x.peakRssMB ?? '?'} MB`;
  const fig = (label, size, x, y, ratio, ratioCpu) =>
    rows.push(`| ${label} | ${size} | ${x ? cell(x) : '–'} | ${y && !y.skipped ? cell(y) : y?.skipped ? 'not run (--full)' : '–'} | ${ratio != null ? `${ratio}x${ratioCpu != null ? ` (${ratioCpu}x)` : ''}` : '–'} |`);
  if (r.cli) {
    for (const [label, key] of [['1,000 turns', 'turns1000'], ['5,000 turns', 'turns5000']]) {
      const e = r.cli[key];
      if (e) fig(label, fmtMB(e.bytes), e.msglint, e.markdownlint, e.ratio, e.ratioCpu);
    }
  }
  if (r.growth) {
    fig('5,000 cells', fmtMB(r.corpora.cells5000.bytes), r.growth.cells5000);
    fig('50,000 cells', fmtMB(r.corpora.cells50000.bytes), r.growth.cells50000);
  }
  if (r.tree) fig(`tree, ${r.tree.files} files`, fmtMB(r.tree.bytes), r.tree.default, r.tree.markdownlint, r.tree.ratio);
  if (rows.length) {
    out.push('| corpus | size | msglint: wall (cpu) · MB/s · peak RSS | markdownlint | ratio: wall (cpu) |', '|---|---|---|---|---|', ...rows, '');
  }
  if (r.msglint.rules) out.push(`msglint checks ${r.msglint.rules.total} rules${r.msglint.rules.off.length ? ` (off by default: ${r.msglint.rules.off.join(', ')})` : ', all on by default'}; markdownlint reports ${r.cli?.turns1000?.markdownlint?.findings ?? '–'} findings on the 1,000-turn file.`);
  if (r.startup) out.push(`msglint start-up (\`--version\`): ${fmtS(r.startup.best)}.${r.growth ? ` Growth 50k/5k without start-up: ${r.growth.ratioWithoutStartup}x.` : ''}`);
  if (r.tree && typeof r.tree.concurrency !== 'string') {
    out.push(`Tree: --concurrency 1 ${fmtS(r.tree.concurrency1.best)}, 2 ${fmtS(r.tree.concurrency2.best)}, auto ${fmtS(r.tree.concurrencyAuto.best)}.`);
    if (r.tree.oneCore1) {
      out.push(
        `Tree on one core (taskset -c 0): --concurrency 1 ${fmtS(r.tree.oneCore1.best)}, 2 ${fmtS(r.tree.oneCore2.best)}; on 2 cores the same commands are ${r.tree.coresSpeedup1}x and ${r.tree.coresSpeedup2}x faster.`,
      );
    }
    const t = r.tree.timing;
    if (t) {
      out.push(
        `Tree with MSGLINT_TIMING, --concurrency 1: start-up ${fmtMs(t.threads1.startupMs)}, discovery ${fmtMs(t.threads1.discoveryMs)}, lint ${fmtMs(t.threads1.lintMs)}, report ${fmtMs(t.threads1.reportMs)}; ` +
          `with ${fmtS(t.threads1.serialS)} serial, two perfect threads would be at most ${t.bound2}x faster. ` +
          `Parsing and rules: ${fmtMs(t.threads1.engineMs)} on one thread, ${fmtMs(t.threads2.engineMs)} summed over two (${t.perFileSlowdown}x per file).`,
      );
    }
  }
  if (r.tree && typeof r.tree.cache !== 'string') out.push(`Tree: --cache first run ${fmtS(r.tree.cacheCold.best)}, second run ${fmtS(r.tree.cacheWarm.best)}.`);
  if (r.lsp && !r.lsp.skipped) {
    const l = r.lsp;
    out.push(
      `Language server (${l.diagnosticsMode} diagnostics): open -> diagnostics ${fmtMs(l.openToDiagnosticsMs)}; edit -> diagnostics median ${fmtMs(l.editToDiagnosticsMs.median)}, max ${fmtMs(l.editToDiagnosticsMs.max)}; ` +
        `completion ${fmtMs(l.completionMs.median)}, hover ${fmtMs(l.hoverMs.median)} (medians of ${l.editToDiagnosticsMs.samples.length}); edit -> completion ${fmtMs(l.editToCompletionMs.median)}` +
        `${l.serverPeakRssMB ? `; server peak RSS ${l.serverPeakRssMB} MB` : ''}.`,
    );
  }
  out.push('');
  out.push('| goal | target | measured | result |', '|---|---|---|---|');
  for (const g of r.goals) {
    const result = g.pass === true ? 'pass' : g.pass === false ? '**FAIL**' : g.note ?? 'n/a';
    out.push(`| ${g.goal} | ${g.target} | ${g.value ?? '–'} | ${result}${g.pass != null && g.note ? ` (${g.note})` : ''} |`);
  }
  return `${out.join('\n')}\n`;
}

main().catch((e) => {
  process.stderr.write(`bench: ${e?.stack ?? e}\n`);
  process.exit(1);
});

// --concurrency: the main thread and its workers share the files in chunks;
// the report must be the one of a single thread, byte for byte, and a worker
// that fails must fail the run with one line, as the main thread would.
import { chmodSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claimChunk, stopClaims, workerCount } from '../../server/cli/workers.js';
import {
  CELL_ID_MISSING,
  CELL_MARKER,
  CLEAN,
  PLAIN,
  STACK_FRAME,
  cleanupTempDirs,
  lines,
  makeTree,
  run,
  runUnprivileged,
  whyNotUnprivileged,
  writeTree,
  type RunResult,
} from './helpers.js';

afterAll(cleanupTempDirs);

/** Errors, warnings, clean files, a file that is not a message file and one that is not UTF-8, in several directories. */
function mixedFiles(n: number): Record<string, string | Buffer> {
  const files: Record<string, string | Buffer> = {};
  for (let i = 0; i < n; i++) {
    const content = i % 5 === 0 ? CELL_MARKER : i % 7 === 0 ? CELL_ID_MISSING : i % 11 === 0 ? PLAIN : CLEAN;
    files[`d${i % 6}/s${i % 4}/f${String(i).padStart(3, '0')}.msg.md`] = content;
  }
  files['d1/latin1.msg.md'] = Buffer.concat([Buffer.from(CELL_MARKER), Buffer.from([0xe9, 0x0a])]);
  return files;
}

/** Test-only behaviour of the worker threads (and, with MSGLINT_TEST_SLOW_MAIN, a slower main thread), loaded with --require. */
const PRELOAD = `
const fs = require('node:fs');
const { isMainThread, parentPort } = require('node:worker_threads');
const mode = process.env.MSGLINT_TEST_WORKER;
const patch = (name, test, fail) => {
  const real = fs[name];
  fs[name] = function (file, ...rest) {
    if (test(String(file))) fail();
    return real.call(this, file, ...rest);
  };
  require('node:module').syncBuiltinESMExports();
};
if (isMainThread) {
  // Lets the workers take a share even of a small tree.
  const ms = Number(process.env.MSGLINT_TEST_SLOW_MAIN ?? 0);
  // Message files are opened and read by hand (readMessageFile), not with readFileSync.
  if (ms > 0) patch('openSync', (f) => f.endsWith('.msg.md'), () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms));
} else if (mode === 'exit') {
  parentPort.once('message', () => process.exit(7));
} else if (mode === 'throw') {
  // The worker's own code throws (its first message to the main thread
  // fails), whatever order the message listeners run in.
  parentPort.postMessage = () => { throw new Error('boom\\n  on two lines'); };
}
if ((mode === 'config' && !isMainThread) || mode === 'config-everywhere') {
  // Config files are opened and read by hand (readRegularFile).
  patch('openSync', (f) => f.endsWith('.msglintrc.json') && fs.existsSync(f), () => { throw Object.assign(new Error('i/o error, read'), { code: 'EIO' }); });
}
`;
const preloadDir = makeTree({ 'preload.cjs': PRELOAD });
chmodSync(preloadDir, 0o755); // readable by the unprivileged user too
const preload = (env: Record<string, string>) => ({ NODE_OPTIONS: `--require=${path.join(preloadDir, 'preload.cjs')}`, ...env });

function same(a: RunResult, b: RunResult): void {
  expect(b.stdout).toBe(a.stdout);
  expect(b.stderr).toBe(a.stderr);
  expect(b.status).toBe(a.status);
}

/** Every file under `dir` with its content, for comparing trees after --fix. */
function snapshot(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, name);
    if (statSync(file).isFile()) result[name] = readFileSync(file, 'latin1');
  }
  return result;
}

describe('--concurrency: the same output as one thread, byte for byte', () => {
  const dir = makeTree(mixedFiles(150));

  for (const format of ['stylish', 'json']) {
    it(`--format ${format}`, () => {
      const one = run(['--format', format, '--concurrency', '1', '.'], { cwd: dir });
      expect(one.status).toBe(1);
      expect(one.stdout).toContain('f000.msg.md');
      for (const setting of ['2', '3', '8']) same(one, run(['--format', format, '--concurrency', setting, '.'], { cwd: dir }));
      // Workers that lint a good share of the files, in chunks they claim as they go.
      same(one, run(['--format', format, '--concurrency', '2', '.'], { cwd: dir, env: preload({ MSGLINT_TEST_SLOW_MAIN: '3' }) }));
    });
  }

  it('--fix and --fix-dry-run', () => {
    const fixDir = makeTree();
    const runOnFreshTree = (args: string[], env?: Record<string, string>) => {
      rmSync(fixDir, { recursive: true, force: true });
      writeTree(fixDir, mixedFiles(120));
      const result = run(args, { cwd: fixDir, ...(env ? { env } : {}) });
      return { result, files: snapshot(fixDir) };
    };
    for (const fix of ['--fix', '--fix-dry-run']) {
      const one = runOnFreshTree(['--format', 'json', fix, '--concurrency', '1', '.']);
      expect(one.result.stderr).toContain('latin1.msg.md: not valid UTF-8');
      const two = runOnFreshTree(['--format', 'json', fix, '--concurrency', '2', '.'], preload({ MSGLINT_TEST_SLOW_MAIN: '3' }));
      same(one.result, two.result);
      expect(two.files).toEqual(one.files);
      expect(two.files[path.normalize('d0/s0/f000.msg.md')]).toContain(fix === '--fix' ? '# %% [^1]' : '#%% [^1]');
    }
  });

  it('a file that cannot be read: reported in its place, exit 2, the others still linted', (context) => {
    const locked = makeTree(mixedFiles(100));
    chmodSync(locked, 0o755);
    chmodSync(path.join(locked, 'd3/s1/f009.msg.md'), 0o000);
    const one = runUnprivileged(['--format', 'json', '--concurrency', '1', '.'], { cwd: locked });
    if (!one) return context.skip(whyNotUnprivileged());
    expect(one.status).toBe(2);
    expect(lines(one.stderr)).toEqual(['msglint: d3/s1/f009.msg.md: permission denied']);
    same(one, runUnprivileged(['--format', 'json', '--concurrency', '2', '.'], { cwd: locked, env: preload({ MSGLINT_TEST_SLOW_MAIN: '3' }) })!);
  });
});

describe('--concurrency: a worker that fails', () => {
  const dir = makeTree(mixedFiles(60));

  function expectOneLine(result: RunResult, line: RegExp): void {
    expect(result.status).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(line);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  }

  it('dies: one line on stderr, exit 2', () => {
    const result = run(['--concurrency', '2', '.'], { cwd: dir, env: preload({ MSGLINT_TEST_WORKER: 'exit' }) });
    expectOneLine(result, /^msglint: internal error: worker thread stopped before it finished \(exit code 7\)$/m);
    expect(result.stdout).toBe('');
  });

  it('throws: one line on stderr, exit 2', () => {
    const result = run(['--concurrency', '3', '.'], { cwd: dir, env: preload({ MSGLINT_TEST_WORKER: 'throw' }) });
    expectOneLine(result, /^msglint: internal error: worker thread failed: boom on two lines$/m);
  });

  it('cannot read a config file: the error of the main thread, exit 2', () => {
    const withConfig = makeTree({ ...mixedFiles(60), '.msglintrc.json': '{"rules": {}}' });
    const result = run(['--concurrency', '2', '.'], { cwd: withConfig, env: preload({ MSGLINT_TEST_WORKER: 'config', MSGLINT_TEST_SLOW_MAIN: '10' }) });
    expectOneLine(result, /^msglint: \.msglintrc\.json: cannot read config file: EIO: i\/o error, read$/m);
    // As the main thread reports it (there it fails the discovery already).
    const one = run(['--concurrency', '1', '.'], { cwd: withConfig, env: preload({ MSGLINT_TEST_WORKER: 'config-everywhere' }) });
    same(one, result);
  });
});

describe('chunks', () => {
  it('cover every file once, shrink as the list runs out, and stop when asked', () => {
    const next = new Int32Array(new SharedArrayBuffer(4));
    const chunks: [number, number][] = [];
    for (let chunk; (chunk = claimChunk(next, 1000, 2)); ) chunks.push(chunk);
    expect(chunks[0]).toEqual([0, 125]);
    expect(chunks.at(-1)![1]).toBe(1000);
    for (let k = 1; k < chunks.length; k++) {
      expect(chunks[k]![0]).toBe(chunks[k - 1]![1]);
      expect(chunks[k]![1] - chunks[k]![0]).toBeLessThanOrEqual(chunks[k - 1]![1] - chunks[k - 1]![0]);
    }
    expect(Math.min(...chunks.slice(0, -1).map(([a, b]) => b - a))).toBe(4);

    const other = new Int32Array(new SharedArrayBuffer(4));
    expect(claimChunk(other, 10, 2)).toEqual([0, 4]);
    stopClaims(other, 10);
    expect(claimChunk(other, 10, 2)).toBeUndefined();
  });

  it('workerCount: threads in all, the main thread included', () => {
    expect(workerCount(undefined, 5000)).toBe(1);
    expect(workerCount('off', 5000)).toBe(1);
    expect(workerCount(2, 5000)).toBe(2);
    expect(workerCount(4, 3)).toBe(3);
    // Threads do not pay for the few megabytes of the benchmark's tree.
    expect(workerCount('auto', 2000, 6 * 1024 * 1024)).toBe(1);
    expect(workerCount('auto', 2000, 40 * 1024 * 1024)).toBe(Math.min(availableParallelism(), 63));
    expect(workerCount('auto', 10, Infinity)).toBe(1);
  });
});

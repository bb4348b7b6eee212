// Shared helpers for the process-level CLI tests. The CLI runs from dist/
// (`npm test` builds first; run `npx tsc -p tsconfig.json` before running
// these tests on their own).

import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The package's bin: the bundle `npm run build` makes of dist/server/cli/.
export const MAIN = path.join(ROOT, 'dist/cli/main.js');
export const FIXTURES = path.join(ROOT, 'test/fixtures/cli');

if (!existsSync(MAIN)) {
  throw new Error(`${MAIN} is missing: build first with "npm run build" (npm test does it)`);
}

export function fixture(name: string): string {
  return readFileSync(path.join(FIXTURES, name), 'utf8');
}

/** A valid message file: no diagnostics from any rule. */
export const CLEAN = fixture('clean.msg.md');
/** `#%% [^1]`: one cell-marker error, fixable (`#%%` -> `# %%`). */
export const CELL_MARKER = fixture('cell-marker.msg.md');
/** `# %% Hi` without an id: one cell-id-missing warning. */
export const CELL_ID_MISSING = fixture('cell-id-missing.msg.md');
/** An ordinary Markdown file whose frontmatter declares message_section. */
export const DISCUSSION = fixture('discussion.md');
/** An ordinary Markdown file: not a message file. */
export const PLAIN = fixture('plain.md');

const tempDirs: string[] = [];

/**
 * Creates a temporary directory holding `files` (relative path -> content)
 * and returns its real path (macOS's /tmp is a symlink, and reports use real
 * paths). Removed by cleanupTempDirs().
 */
export function makeTree(files: Record<string, string | Buffer> = {}): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'msglint-cli-')));
  tempDirs.push(dir);
  writeTree(dir, files);
  return dir;
}

export function writeTree(dir: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

export function cleanupTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  input?: string | Buffer;
  env?: Record<string, string | undefined>;
  /** Milliseconds before the process is killed (the test then fails with ETIMEDOUT). */
  timeout?: number;
}

/** Runs `node dist/cli/main.js ...args` (or another copy of the bin) in `cwd` with a colour-neutral environment. */
export function run(args: readonly string[], options: RunOptions, main = MAIN): RunResult {
  return spawnCli([process.execPath, main, ...args], options);
}

const isRoot = process.getuid?.() === 0;
const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((candidate) => existsSync(candidate));
const NOBODY = 65534;

let unprivilegedUnavailable = 'running as root without setpriv';

/** Why runUnprivileged returned undefined: the reason a test skips with. */
export function whyNotUnprivileged(): string {
  return unprivilegedUnavailable;
}

let unprivilegedMain: string | undefined;

/**
 * The built command as the unprivileged user can load it. The checkout may
 * live where that user cannot enter (a clone under a 0700 directory, such as
 * `mktemp -d`), so the tests run a copy of dist/cli/ (one self-contained
 * bundle) with the package's package.json, laid out as an installed package
 * in a world-readable temporary directory. Removed by cleanupTempDirs().
 */
function mainForUnprivileged(): string {
  // cleanupTempDirs() may have removed an earlier copy.
  if (unprivilegedMain && existsSync(unprivilegedMain)) return unprivilegedMain;
  const dir = makeTree();
  chmodSync(dir, 0o755);
  const copy = path.join(dir, 'msglint');
  cpSync(path.join(ROOT, 'dist/cli'), path.join(copy, 'dist/cli'), { recursive: true });
  cpSync(path.join(ROOT, 'package.json'), path.join(copy, 'package.json'));
  for (const sub of ['msglint', 'msglint/dist', 'msglint/dist/cli']) chmodSync(path.join(dir, sub), 0o755);
  unprivilegedMain = path.join(copy, 'dist/cli/main.js');
  return unprivilegedMain;
}

/** Whether others may pass through every directory above `file` (the execute bit for others). */
function reachableByOthers(file: string): boolean {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (path.dirname(dir) === dir) return true;
  }
}

/**
 * Permission tests need a user that file modes apply to. As root, runs the
 * CLI as "nobody" through setpriv, from a copy the unprivileged user can
 * read; returns undefined when that is impossible (no setpriv, or a
 * temporary directory that others cannot reach).
 */
export function runUnprivileged(args: readonly string[], options: RunOptions): RunResult | undefined {
  if (!isRoot) return run(args, options);
  if (!setpriv) return undefined;
  const main = mainForUnprivileged();
  for (const file of [main, process.execPath]) {
    if (reachableByOthers(file)) continue;
    unprivilegedUnavailable = `${path.dirname(file)} is not reachable by other users`;
    return undefined;
  }
  return spawnCli([setpriv, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, main, ...args], options);
}

let cacheHomeDir: string | undefined;

/**
 * The XDG_CACHE_HOME the tests' runs get (where --cache keeps the key that
 * signs caches): a temporary folder, so that no test writes to the home of
 * whoever runs them. Made again after cleanupTempDirs().
 */
export function cacheHome(): string {
  if (!cacheHomeDir || !existsSync(cacheHomeDir)) cacheHomeDir = makeTree();
  return cacheHomeDir;
}

function spawnCli(argv: readonly string[], { cwd, input, env = {}, timeout = 60_000 }: RunOptions): RunResult {
  const baseEnv: Record<string, string | undefined> = { ...process.env, XDG_CACHE_HOME: cacheHome() };
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'MSGLINT_DEBUG', 'CI', 'GITHUB_ACTIONS']) delete baseEnv[name];
  const result = spawnSync(argv[0]!, argv.slice(1), {
    cwd,
    input: input ?? '',
    env: { ...baseEnv, ...env },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs with --format json and parses the report. */
export function runJson(args: readonly string[], options: RunOptions): RunResult & { reports: JsonReport[] } {
  const result = run(['--format', 'json', ...args], options);
  let reports: JsonReport[];
  try {
    reports = JSON.parse(result.stdout) as JsonReport[];
  } catch {
    throw new Error(`stdout is not JSON (exit ${result.status}): ${result.stdout.slice(0, 500)}\nstderr: ${result.stderr}`);
  }
  return { ...result, reports };
}

export interface JsonMessage {
  ruleId: string;
  severity: 1 | 2;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  fix?: { range: [number, number]; text: string };
  suggestions?: { desc: string; fix: { range: [number, number]; text: string } }[];
}

export interface JsonReport {
  filePath: string;
  messages: JsonMessage[];
  errorCount: number;
  warningCount: number;
  fixableErrorCount: number;
  fixableWarningCount: number;
  output?: string;
}

/** Linted files as paths relative to `dir`, sorted, with forward slashes. */
export function linted(reports: readonly JsonReport[], dir: string): string[] {
  return reports.map((r) => path.relative(dir, r.filePath).split(path.sep).join('/')).sort();
}

/** stderr lines, without the trailing empty one. */
export function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

/** A stack-trace frame ("    at f (file.js:1:2)") anywhere in the text. */
export const STACK_FRAME = /^\s+at\s/m;


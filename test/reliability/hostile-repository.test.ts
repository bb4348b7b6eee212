// Issue 45, points 4 to 8: what a repository under lint (a pull request in
// CI) commits must not make msglint write outside its tree, read without
// bound, trust a cache it did not write, or lose a report; and --fix must
// not lose what an agent appends while it runs. The tests commit what a pull
// request could (files and symbolic links in a temporary tree) and run the
// command as a process, as CI does.
//
// A test that would hang on a FIFO or read /proc for gigabytes is bounded by
// the process timeout (spawnSync then throws), not by a time assertion.

import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, closeSync, existsSync, openSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseArgs, type LintCommand } from '../../server/cli/args.js';
import { cacheText } from '../../server/cli/cache.js';
import { createFileLinter } from '../../server/cli/lint-file.js';
import { ConfigResolver } from '../../server/config/load.js';
import { allRules } from '../../server/linter.js';
import { cacheKeyFile, loadCacheKey } from '../../server/cli/cache-key.js';
import { CELL_MARKER, CLEAN, cleanupTempDirs, lines, linted, MAIN, makeTree, run, runJson, runUnprivileged, STACK_FRAME, whyNotUnprivileged } from '../cli/helpers.js';

afterAll(cleanupTempDirs);

const LIMIT = { timeout: 30_000 };
const OUTSIDE = 'the file outside the tree\n';

/** A checkout in `repo/`, with a file next to it that a link may point at. */
function checkout(files: Record<string, string>): { repo: string; outside: string } {
  const root = makeTree({ 'outside.txt': OUTSIDE });
  const repo = path.join(root, 'repo');
  mkdirSync(repo);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(repo, name), text);
  return { repo, outside: path.join(root, 'outside.txt') };
}

const replaced = (label: string, what: string) => `msglint: ${label}: was a symbolic link; replaced by the ${what} (the file it pointed to is left as it was)`;

describe('reports are written at their path, never through a link (point 4)', () => {
  it('--output-file msglint.sarif committed as a link to a file outside: the link is replaced, the file outside untouched', () => {
    const { repo, outside } = checkout({ 'a.msg.md': CLEAN });
    symlinkSync('../outside.txt', path.join(repo, 'msglint.sarif'));
    const result = run(['--format', 'sarif', '--output-file', 'msglint.sarif', '.'], { cwd: repo });
    expect([result.status, lines(result.stderr)]).toEqual([0, [replaced('msglint.sarif', 'report')]]);
    expect(readFileSync(outside, 'utf8')).toBe(OUTSIDE);
    expect(lstatSync(path.join(repo, 'msglint.sarif')).isFile()).toBe(true);
    expect(JSON.parse(readFileSync(path.join(repo, 'msglint.sarif'), 'utf8')).version).toBe('2.1.0');
  });

  it('a link that leads nowhere yet (a file it would create outside) is replaced too; nothing is made outside', () => {
    const { repo } = checkout({ 'a.msg.md': CLEAN });
    symlinkSync('../made-outside.txt', path.join(repo, 'report.json'));
    const result = run(['--format', 'json', '-o', 'report.json', '.'], { cwd: repo });
    expect([result.status, lines(result.stderr)]).toEqual([0, [replaced('report.json', 'report')]]);
    expect(existsSync(path.join(repo, '..', 'made-outside.txt'))).toBe(false);
    expect(JSON.parse(readFileSync(path.join(repo, 'report.json'), 'utf8'))).toHaveLength(1);
  });

  it('export -o and import -o --force through a committed link: replaced, the file outside untouched', () => {
    const { repo, outside } = checkout({ 'a.msg.md': CLEAN, 'chat.json': '[{"role":"user","content":"Hi"}]' });
    symlinkSync('../outside.txt', path.join(repo, 'a.json'));
    const exported = run(['export', 'a.msg.md', '--to', 'openai', '-o', 'a.json'], { cwd: repo });
    expect([exported.status, lines(exported.stderr)]).toEqual([0, [replaced('a.json', 'export')]]);
    expect(readFileSync(outside, 'utf8')).toBe(OUTSIDE);
    expect(Array.isArray(JSON.parse(readFileSync(path.join(repo, 'a.json'), 'utf8')))).toBe(true);

    symlinkSync('../outside.txt', path.join(repo, 'chat.msg.md'));
    const refused = run(['import', 'chat.json', '-o', 'chat.msg.md'], { cwd: repo });
    expect([refused.status, lines(refused.stderr)]).toEqual([2, ['msglint: chat.msg.md: exists; give --force to overwrite it']]);
    const forced = run(['import', 'chat.json', '-o', 'chat.msg.md', '--force'], { cwd: repo });
    expect(forced.status).toBe(0);
    expect(lines(forced.stderr)).toContain(replaced('chat.msg.md', 'imported file'));
    expect(readFileSync(outside, 'utf8')).toBe(OUTSIDE);
    expect(readFileSync(path.join(repo, 'chat.msg.md'), 'utf8')).toContain('Hi');
  });

  it('-o /dev/stdout still reaches standard output, here a file (a link under /dev is the process’s own stream, never replaced)', (context) => {
    if (!existsSync('/dev/stdout')) return context.skip('no /dev/stdout here');
    const dir = makeTree({ 'a.msg.md': CELL_MARKER });
    const out = path.join(dir, 'stdout.json');
    const fd = openSync(out, 'w');
    try {
      const result = spawnSync(process.execPath, [MAIN, '--format', 'json', '-o', '/dev/stdout', '.'], { cwd: dir, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
      expect([result.status, result.stderr]).toEqual([1, '']);
    } finally {
      closeSync(fd);
    }
    expect(JSON.parse(readFileSync(out, 'utf8'))[0].messages[0].ruleId).toBe('cell-marker');
    expect(lstatSync('/dev/stdout').isSymbolicLink()).toBe(true);
  });
});

describe('files that are not what they say: one guarded reader (point 5)', () => {
  it('a committed x.msg.md linking to /proc/self/pagemap: one line, the other files linted, exit 2', (context) => {
    if (!existsSync('/proc/self/pagemap')) return context.skip('no /proc here');
    const dir = makeTree({ 'a.msg.md': CLEAN });
    symlinkSync('/proc/self/pagemap', path.join(dir, 'x.msg.md'));
    const result = runJson(['.'], { cwd: dir, ...LIMIT });
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect([result.status, lines(result.stderr)]).toEqual([2, ['msglint: x.msg.md: larger than 64 MiB']]);
    expect(linted(result.reports, dir)).toEqual(['a.msg.md']);
    for (const command of [['export', 'x.msg.md', '--to', 'openai'], ['agents', 'x.msg.md']]) {
      const other = run(command, { cwd: dir, ...LIMIT });
      expect([other.status, lines(other.stderr)], command[0]).toEqual([2, ['msglint: x.msg.md: larger than 64 MiB']]);
    }
  });

  it('a message file past 64 MiB is not read: one line, exit 2', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN, 'big.msg.md': '' });
    // Sparse: no 64 MiB written to disk.
    truncateSync(path.join(dir, 'big.msg.md'), 64 * 1024 * 1024 + 1);
    const result = runJson(['.'], { cwd: dir, ...LIMIT });
    expect([result.status, lines(result.stderr)]).toEqual([2, ['msglint: big.msg.md: larger than 64 MiB']]);
    expect(linted(result.reports, dir)).toEqual(['a.msg.md']);
  });

  it('--stdin --stdin-filename with rdjson: columns from the text given, the file of that name never read (a FIFO, or other text)', (context) => {
    const token = `glpat-${'Xy7wV3kQ9z'.repeat(2)}Ab`;
    const line = `Clé : https://oauth2:${token}@gitlab.example.org/x.git`;
    const text = ['# %% Setup[^1]', '', '[^1]: [markdown]', '', line, ''].join('\n');
    // rdjson counts UTF-8 bytes: "é" is two.
    const column = Buffer.byteLength(line.slice(0, line.indexOf(token))) + 1;
    const dir = makeTree({ 'other.msg.md': CLEAN.replace(/\n/, `\n${'x'.repeat(40)}\n`) });
    const names = ['other.msg.md'];
    if (spawnSync('mkfifo', [path.join(dir, 'pipe.msg.md')]).status === 0) names.push('pipe.msg.md');
    else context.annotate('no FIFOs here: only the file with other text is tried');
    for (const name of names) {
      const result = run(['--stdin', '--stdin-filename', name, '--format', 'rdjson'], { cwd: dir, input: text, ...LIMIT });
      expect(result.status, name).toBe(1);
      const [diagnostic] = JSON.parse(result.stdout).diagnostics;
      expect(diagnostic.location.range.start, name).toEqual({ line: 5, column });
    }
  });
});

describe('a cache the change under review could have written is not trusted (point 6)', () => {
  const token = `glpat-${'Xy7wV3kQ9z'.repeat(2)}Ab`;
  const SECRET = ['# %% Setup[^1]', '', '[^1]: [markdown]', '', `git remote set-url origin https://oauth2:${token}@gitlab.example.org/x.git`, ''].join('\n');

  it('a committed .msglintcache that clears a file holding an API key: the finding is reported, one line says why', () => {
    const dir = makeTree({ 'a.msg.md': SECRET });
    // The author of the pull request makes the cache on their machine (their own key), and clears the file's findings.
    const authorHome = makeTree();
    expect(run(['--cache', '.'], { cwd: dir, env: { XDG_CACHE_HOME: authorHome } }).status).toBe(1);
    const made = JSON.parse(readFileSync(path.join(dir, '.msglintcache'), 'utf8'));
    for (const entry of Object.values(made.entries) as { messages: unknown[]; stamp?: unknown }[]) {
      entry.messages = [];
      delete entry.stamp;
    }
    const forged = made.mac === undefined ? JSON.stringify(made) : cacheText(loadCacheKey(cacheKeyFile({ XDG_CACHE_HOME: authorHome })), JSON.stringify(made.entries));
    writeFileSync(path.join(dir, '.msglintcache'), forged);
    // The author's machine trusts it (it is theirs)...
    expect(runJson(['--cache', '.'], { cwd: dir, env: { XDG_CACHE_HOME: authorHome } }).reports[0]!.messages).toEqual([]);
    writeFileSync(path.join(dir, '.msglintcache'), forged);
    // ...CI does not.
    const ci = runJson(['--cache', '.'], { cwd: dir });
    expect(ci.status).toBe(1);
    expect(ci.reports[0]!.messages.map((m) => m.ruleId)).toEqual(['secret']);
    expect(lines(ci.stderr)).toEqual([
      "msglint: .msglintcache: not used as the cache: not signed with this user's cache key (a cache committed to the repository or copied from elsewhere is never trusted); it will be replaced",
    ]);
    // Replaced by CI's own: the next run trusts it, and still reports the key.
    const next = runJson(['--cache', '.'], { cwd: dir });
    expect([next.status, next.stderr, next.reports[0]!.messages.map((m) => m.ruleId)]).toEqual([1, '', ['secret']]);
  });

  it('the key is the user’s alone (mode 600 in a folder of mode 700); a home where none can be kept: one line, linted without the cache', () => {
    const dir = makeTree({ 'a.msg.md': CELL_MARKER });
    const home = makeTree();
    expect(runJson(['--cache', '.'], { cwd: dir, env: { XDG_CACHE_HOME: home } }).status).toBe(1);
    const key = path.join(home, 'msglint', 'cache-key');
    expect([(lstatSync(key).mode & 0o777).toString(8), (lstatSync(path.dirname(key)).mode & 0o777).toString(8)]).toEqual(['600', '700']);
    const blocked = makeTree({ msglint: 'a file where the folder should be' });
    const result = runJson(['--cache', '.'], { cwd: dir, env: { XDG_CACHE_HOME: blocked } });
    expect(result.status).toBe(1);
    expect(result.reports[0]!.messages.map((m) => m.ruleId)).toEqual(['cell-marker']);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(/^msglint: .*msglint\/cache-key: cannot keep the key that signs the cache: .*; linting without the cache$/m);
  });
});

describe('--cache-location where no cache can be written (point 7)', () => {
  it('inside a file: one line, the report printed, the exit code the lint’s (a folder holds the cache: concurrency-cache.test.ts)', () => {
    const dir = makeTree({ 'a.msg.md': CELL_MARKER });
    for (const [location, why] of [['a.msg.md/cache', 'not a directory']]) {
      const result = runJson(['--cache', '--cache-location', location!, 'a.msg.md'], { cwd: dir });
      expect(result.stderr).not.toMatch(STACK_FRAME);
      expect([result.status, lines(result.stderr)], location).toEqual([1, [`msglint: ${location}: cannot write the cache: ${why}`]]);
      expect(result.reports[0]!.messages.map((m) => m.ruleId)).toEqual(['cell-marker']);
    }
  });

  it('as an unprivileged user, in a folder it may not enter: one line, the report printed', (context) => {
    const dir = makeTree({ 'a.msg.md': CELL_MARKER, 'locked/.keep': '' });
    chmodSync(dir, 0o755);
    chmodSync(path.join(dir, 'a.msg.md'), 0o644);
    chmodSync(path.join(dir, 'locked'), 0o000);
    const home = makeTree();
    chmodSync(home, 0o777);
    try {
      const result = runUnprivileged(['--format', 'json', '--cache', '--cache-location', 'locked/cache', 'a.msg.md'], { cwd: dir, env: { XDG_CACHE_HOME: home } });
      if (!result) return context.skip(whyNotUnprivileged());
      expect(result.stderr).not.toMatch(STACK_FRAME);
      expect([result.status, lines(result.stderr)]).toEqual([1, ['msglint: locked/cache: cannot write the cache: permission denied']]);
      expect(JSON.parse(result.stdout)[0].messages[0].ruleId).toBe('cell-marker');
    } finally {
      chmodSync(path.join(dir, 'locked'), 0o755);
    }
  });
});

describe('--fix and a file changed meanwhile (point 8)', () => {
  it('a file an agent appends to after it was read is left alone, with one line; the others are fixed', () => {
    const dir = makeTree({ 'log.msg.md': CELL_MARKER, 'other.msg.md': CELL_MARKER });
    const log = path.join(dir, 'log.msg.md');
    const command = parseArgs(['--fix', '.']) as LintCommand;
    // The config is looked up between the read and the write: there, the
    // agent's turn lands, deterministically (a timing test would be flaky).
    class Appending extends ConfigResolver {
      override forFile(file: string) {
        if (file === log) appendFileSync(log, '\n# %% The agent goes on\n');
        return super.forFile(file);
      }
    }
    const linter = createFileLinter(command, dir, new Appending(allRules));
    const outcome = linter.lintPath(log);
    expect([outcome.failed, outcome.messages]).toEqual([true, ['msglint: log.msg.md: changed while it was being fixed; not written']]);
    expect(readFileSync(log, 'utf8')).toBe(`${CELL_MARKER}\n# %% The agent goes on\n`);
    const other = linter.lintPath(path.join(dir, 'other.msg.md'));
    expect([other.failed, other.messages]).toEqual([false, []]);
    expect(readFileSync(path.join(dir, 'other.msg.md'), 'utf8')).toBe(CELL_MARKER.replace('#%%', '# %%'));
  });
});

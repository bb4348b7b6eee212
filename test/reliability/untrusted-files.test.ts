// Issue 35: what a repository under lint (a pull request in CI) may hold
// must not hang, crash or mislead the command. Special files where config
// is read (points 1 and 11), folders named `..x` (point 4), directory links
// out of the tree (point 5), ignore patterns that backtrack (point 6), and
// export's output file (point 11).
//
// A test that would hang on a FIFO or stream /dev/zero forever is bounded by
// the process timeout (spawnSync then throws), not by a time assertion.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CELL_MARKER, CLEAN, cleanupTempDirs, lines, linted, makeTree, run, runJson, STACK_FRAME } from '../cli/helpers.js';

afterAll(cleanupTempDirs);

const LIMIT = { timeout: 20_000 };
const hasDevZero = existsSync('/dev/zero');

/** Makes a FIFO; false where the platform has none. */
function mkfifo(file: string): boolean {
  return spawnSync('mkfifo', [file]).status === 0;
}

/** One line on stderr, exit 2, no stack trace. */
function expectOneLine(result: { status: number | null; stderr: string }, pattern: RegExp): void {
  expect(result.stderr).not.toMatch(STACK_FRAME);
  expect(lines(result.stderr), result.stderr).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.status).toBe(2);
}

describe('special files where a config or ignore file is read (point 1)', () => {
  it('a config file that links to /dev/zero, or is a FIFO: one line, exit 2', (context) => {
    if (!hasDevZero) return context.skip('no /dev/zero here');
    for (const name of ['.msglintrc.json', '.msglintrc.yaml', 'package.json']) {
      const dir = makeTree({ 'a.msg.md': CLEAN });
      symlinkSync('/dev/zero', path.join(dir, name));
      // A link out of the folder is not even opened (issue 45).
      expectOneLine(run(['.'], { cwd: dir, ...LIMIT }), new RegExp(`^msglint: ${name.replace('.', '\\.')}: a link to a file outside the working directory .*$`, 'm'));
    }
    const dir = makeTree({ 'a.msg.md': CLEAN });
    if (!mkfifo(path.join(dir, '.msglintrc.yml'))) return;
    expectOneLine(run(['.'], { cwd: dir, ...LIMIT }), /\.msglintrc\.yml: cannot read config file: not a regular file/);
  });

  it('-c naming a FIFO or /dev/zero, and a config file past 1 MiB', (context) => {
    const dir = makeTree({ 'a.msg.md': CLEAN, 'big.json': `{"rules":{}${' '.repeat(1024 * 1024)}}` });
    expectOneLine(run(['-c', 'big.json', '.'], { cwd: dir, ...LIMIT }), /big\.json: cannot read config file: larger than 1 MiB/);
    if (hasDevZero) expectOneLine(run(['-c', '/dev/zero', '.'], { cwd: dir, ...LIMIT }), /cannot read config file: not a regular file/);
    if (mkfifo(path.join(dir, 'pipe.json'))) expectOneLine(run(['-c', 'pipe.json', '.'], { cwd: dir, ...LIMIT }), /pipe\.json: cannot read config file: not a regular file/);
  });

  it('a .gitignore that is a FIFO or links to /dev/zero: reported, the files still linted', (context) => {
    if (!hasDevZero) return context.skip('no /dev/zero here');
    const dir = makeTree({ 'a.msg.md': CLEAN, 'sub/b.msg.md': CLEAN });
    symlinkSync('/dev/zero', path.join(dir, '.gitignore'));
    mkfifo(path.join(dir, 'sub', '.gitignore'));
    const result = runJson(['.'], { cwd: dir, ...LIMIT });
    expect(result.status).toBe(2);
    const expected = ['msglint: .gitignore: not a regular file'];
    if (existsSync(path.join(dir, 'sub', '.gitignore'))) expected.push('msglint: sub/.gitignore: not a regular file');
    expect(lines(result.stderr)).toEqual(expected);
    expect(linted(result.reports, dir)).toEqual(['a.msg.md', 'sub/b.msg.md']);
  });

  it('--cache-location naming a FIFO or /dev/zero', (context) => {
    const dir = makeTree({ 'a.msg.md': CLEAN });
    if (hasDevZero) expectOneLine(run(['--cache', '--cache-location', '/dev/zero', '.'], { cwd: dir, ...LIMIT }), /^msglint: \/dev\/zero: cannot use as the cache: not a regular file$/m);
    if (!mkfifo(path.join(dir, 'pipe'))) return context.skip('no FIFOs here');
    expectOneLine(run(['--cache', '--cache-location', 'pipe', '.'], { cwd: dir, ...LIMIT }), /^msglint: pipe: cannot use as the cache: not a regular file$/m);
  });

  it('export and agents of a FIFO: "not a regular file", as lint says', (context) => {
    const dir = makeTree();
    if (!mkfifo(path.join(dir, 'pipe.msg.md'))) return context.skip('no FIFOs here');
    expectOneLine(run(['export', 'pipe.msg.md', '--to', 'openai'], { cwd: dir, ...LIMIT }), /^msglint: pipe\.msg\.md: not a regular file$/m);
    expectOneLine(run(['agents', 'pipe.msg.md'], { cwd: dir, ...LIMIT }), /^msglint: pipe\.msg\.md: not a regular file$/m);
  });
});

describe('folders whose names start with two dots (point 4)', () => {
  it('.gitignore and the config’s ignores apply to ..x folders; --fix leaves their files alone', () => {
    const files = { '.gitignore': '..generated/\n', '.msglintrc.json': JSON.stringify({ ignores: ['..drafts'] }), '..generated/a.msg.md': CELL_MARKER, '..drafts/b.msg.md': CELL_MARKER, '..kept/c.msg.md': CLEAN };
    const dir = makeTree(files);
    mkdirSync(path.join(dir, '.git'));
    expect(linted(runJson(['.'], { cwd: dir }).reports, dir)).toEqual(['..kept/c.msg.md']);
    // Named explicitly, too: ignore rules apply to every path.
    expect(runJson(['..generated/a.msg.md', '..drafts/b.msg.md'], { cwd: dir }).reports).toEqual([]);
    const fix = run(['--fix', '.'], { cwd: dir });
    expect([fix.status, fix.stderr]).toEqual([0, '']);
    expect(readFileSync(path.join(dir, '..generated/a.msg.md'), 'utf8')).toBe(CELL_MARKER);
    expect(readFileSync(path.join(dir, '..drafts/b.msg.md'), 'utf8')).toBe(CELL_MARKER);
  });

  it('reports name files in ..x folders by their relative path', () => {
    const dir = makeTree({ '..x/a.msg.md': CELL_MARKER });
    expect(run(['.'], { cwd: dir }).stdout).toMatch(/^\.\.x\/a\.msg\.md$/m);
  });
});

describe('ignore patterns that would take minutes to match (point 6)', () => {
  it('more than 3 wildcards in a pattern: a config error, one line, exit 2; 3 and globstars still match', () => {
    const name = `${'a'.repeat(40)}.msg.md`;
    const dir = makeTree({ [name]: CLEAN, '.msglintrc.json': JSON.stringify({ ignores: ['x', 'a*a*a*a*a*a*a*a*a*a*b'] }) });
    expectOneLine(run(['.'], { cwd: dir, ...LIMIT }), /^msglint: \.msglintrc\.json: "ignores\[1\]": the pattern has more than 3 wildcards/m);
    writeFileSync(path.join(dir, '.msglintrc.json'), JSON.stringify({ ignores: ['**/a*a*a.msg.md', '**/\\*\\*\\*\\*'] }));
    // Every file ignored: the folder gives no message file, said (issue 47).
    const result = runJson(['--no-error-on-unmatched-pattern', '.'], { cwd: dir, ...LIMIT });
    expect([result.status, result.stderr, result.reports]).toEqual([0, 'msglint: .: no message file found; skipped\n', []]);
  });
});

describe('directory links met during a walk are not followed (point 5)', () => {
  it('a link out of the tree is neither linted nor quoted; named on the command line, it is followed', () => {
    const root = makeTree({ 'repo/a.msg.md': CLEAN, 'x/secret.msg.md': CELL_MARKER });
    symlinkSync('../x', path.join(root, 'repo', 'link'));
    const walked = runJson(['repo'], { cwd: root });
    expect([walked.status, walked.stderr]).toEqual([0, '']);
    expect(linted(walked.reports, root)).toEqual(['repo/a.msg.md']);
    expect(linted(runJson(['repo/link'], { cwd: root }).reports, root)).toEqual(['repo/link/secret.msg.md']);
  });

  it('a link to / is not walked', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN });
    symlinkSync('/', path.join(dir, 'root'));
    const result = runJson(['.'], { cwd: dir, ...LIMIT });
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(linted(result.reports, dir)).toEqual(['a.msg.md']);
  });
});

describe('messages and export’s output file (point 11)', () => {
  it('a write error names its code once', (context) => {
    if (!existsSync('/dev/full')) return context.skip('no /dev/full here');
    const dir = makeTree({ 'a.msg.md': CLEAN });
    const result = run(['export', 'a.msg.md', '--to', 'openai', '-o', '/dev/full'], { cwd: dir });
    expectOneLine(result, /^msglint: \/dev\/full: cannot write: ENOSPC: no space left on device, write$/m);
  });

  it('export -o into a missing folder makes it, as lint’s -o does', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN });
    const result = run(['export', 'a.msg.md', '--to', 'openai', '-o', 'out/deep/a.json'], { cwd: dir });
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(JSON.parse(readFileSync(path.join(dir, 'out/deep/a.json'), 'utf8'))).toBeTruthy();
  });

  it('export X -o X is refused and leaves X as it was', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN });
    symlinkSync('a.msg.md', path.join(dir, 'alias.msg.md'));
    for (const output of ['a.msg.md', './a.msg.md', 'alias.msg.md']) {
      expectOneLine(run(['export', 'a.msg.md', '--to', 'openai', '-o', output], { cwd: dir }), /is the file being exported; write the export elsewhere$/m);
      expect(readFileSync(path.join(dir, 'a.msg.md'), 'utf8')).toBe(CLEAN);
    }
  });
});

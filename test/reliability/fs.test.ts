// The file system as it is, through the CLI as a process on temporary
// directories: symbolic link loops and files that cannot be read during
// discovery (one clear line each on stderr, the other files still linted,
// exit 2 at the end), a directory given as --stdin-filename, and files --fix
// may not write.
//
// The tests run as root here, and root reads and writes files whatever their
// mode. Unreadable and read-only files are therefore tested by running the
// CLI as `nobody` (setpriv --reuid=65534, as test/cli/helpers.ts does), and
// an unwritable file for root with the immutable attribute (chattr +i),
// which root's writes and renames respect. Tests that need either skip,
// saying so, where it is not available.

import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CELL_MARKER, CLEAN, cleanupTempDirs, lines, linted, makeTree, run, runJson, runUnprivileged, STACK_FRAME, whyNotUnprivileged } from '../cli/helpers.js';

afterAll(cleanupTempDirs);

const FIXED = CELL_MARKER.replace('#%%', '# %%');
const isRoot = process.getuid?.() === 0;

/** A tree the unprivileged user may enter and read (and, with `writable`, write). */
function openTree(files: Record<string, string>, writable = false): string {
  const dir = makeTree(files);
  chmodSync(dir, 0o755);
  if (writable && isRoot) {
    const own = (p: string) => {
      chownSync(p, 65534, 65534);
      if (statSync(p).isDirectory()) for (const e of readdirSync(p)) own(path.join(p, e));
    };
    own(dir);
  }
  return dir;
}

function chattr(flag: '+i' | '-i', file: string): boolean {
  const r = spawnSync('chattr', [flag, file], { encoding: 'utf8' });
  return r.status === 0;
}

describe('symbolic link loops during discovery', () => {
  it('reports each link that loops, lints the other files, and exits 2', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN, 'sub/b.msg.md': CELL_MARKER });
    symlinkSync('loop2.msg.md', path.join(dir, 'loop1.msg.md'));
    symlinkSync('loop1.msg.md', path.join(dir, 'loop2.msg.md'));
    symlinkSync('self.msg.md', path.join(dir, 'self.msg.md'));
    // Directory loops are walked once, silently: they are how trees are linked.
    symlinkSync('..', path.join(dir, 'sub', 'up'));
    symlinkSync('.', path.join(dir, 'here'));
    // A link that loops but is not named like a message file is not a file msglint would lint.
    symlinkSync('other', path.join(dir, 'other'));
    const result = runJson([], { cwd: dir });
    expect(result.status).toBe(2);
    expect(lines(result.stderr).sort()).toEqual([
      'msglint: loop1.msg.md: too many levels of symbolic links',
      'msglint: loop2.msg.md: too many levels of symbolic links',
      'msglint: self.msg.md: too many levels of symbolic links',
    ]);
    expect(linted(result.reports, dir)).toEqual(['a.msg.md', 'sub/b.msg.md']);
    expect(result.reports.find((r) => r.filePath.endsWith('b.msg.md'))!.messages.map((m) => m.ruleId)).toEqual(['cell-marker']);
  });

  it('reports a looping link named on the command line', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN });
    symlinkSync('self.msg.md', path.join(dir, 'self.msg.md'));
    const result = runJson(['self.msg.md', 'a.msg.md'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(lines(result.stderr)).toEqual(['msglint: self.msg.md: too many levels of symbolic links']);
    expect(linted(result.reports, dir)).toEqual(['a.msg.md']);
  });

  it('skips a dangling link silently (repositories carry them), and an ignored looping link', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN, '.gitignore': 'ignored.msg.md\n' });
    mkdirSync(path.join(dir, '.git'));
    symlinkSync('nowhere.msg.md', path.join(dir, 'dangling.msg.md'));
    symlinkSync('ignored.msg.md', path.join(dir, 'ignored.msg.md'));
    const result = runJson([], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(linted(result.reports, dir)).toEqual(['a.msg.md']);
  });

  it('a deep chain of directory links is not followed during a walk; named, the link is', () => {
    const dir = makeTree({ 'd0/a.msg.md': CLEAN });
    for (let i = 1; i < 40; i++) symlinkSync(`d${i - 1}`, path.join(dir, `d${i}`));
    symlinkSync('..', path.join(dir, 'd0', 'back'));
    const result = runJson([], { cwd: dir, timeout: 30_000 });
    expect(result.status).toBe(0);
    expect(linted(result.reports, dir)).toEqual(['d0/a.msg.md']);
    expect(linted(runJson(['d39'], { cwd: dir }).reports, dir)).toEqual(['d39/a.msg.md']);
  });
});

describe('files that cannot be read during discovery', () => {
  it('a FIFO named like a message file: reported, not opened (it would block)', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN });
    const fifo = spawnSync('mkfifo', [path.join(dir, 'pipe.msg.md')]);
    if (fifo.status !== 0) return;
    const result = runJson([], { cwd: dir, timeout: 20_000 });
    expect(result.status).toBe(2);
    expect(lines(result.stderr)).toEqual(['msglint: pipe.msg.md: not a regular file']);
    expect(linted(result.reports, dir)).toEqual(['a.msg.md']);
    // Named on the command line, too.
    expect(lines(run(['pipe.msg.md'], { cwd: dir, timeout: 20_000 }).stderr)).toEqual(['msglint: pipe.msg.md: not a regular file']);
  });

  it('as an unprivileged user: an unreadable file, an unreadable directory and a link into it; the rest is linted, exit 2', (context) => {
    const dir = openTree({ 'a.msg.md': CLEAN, 'locked.msg.md': CLEAN, 'closed/b.msg.md': CLEAN, 'open/c.msg.md': CELL_MARKER });
    symlinkSync('../closed/b.msg.md', path.join(dir, 'open', 'into-closed.msg.md'));
    symlinkSync('self.msg.md', path.join(dir, 'open', 'self.msg.md'));
    chmodSync(path.join(dir, 'locked.msg.md'), 0o000);
    chmodSync(path.join(dir, 'closed'), 0o000);
    try {
      const result = runUnprivileged(['--format', 'json'], { cwd: dir });
      if (!result) return context.skip(whyNotUnprivileged());
      expect(result.stderr).not.toMatch(STACK_FRAME);
      expect(result.status).toBe(2);
      expect(lines(result.stderr).sort()).toEqual([
        'msglint: closed: permission denied',
        'msglint: locked.msg.md: permission denied',
        'msglint: open/into-closed.msg.md: permission denied',
        'msglint: open/self.msg.md: too many levels of symbolic links',
      ]);
      const reports = JSON.parse(result.stdout);
      expect(linted(reports, dir)).toEqual(['a.msg.md', 'open/c.msg.md']);
    } finally {
      chmodSync(path.join(dir, 'closed'), 0o755);
    }
  });
});

describe('a directory given as --stdin-filename', () => {
  it('is only a name: standard input is linted under it, nothing is read from or written to it', () => {
    const dir = makeTree({ 'named.msg.md/inside.msg.md': CLEAN, 'plain/x.md': 'x\n' });
    const target = path.join(dir, 'named.msg.md');
    const before = statSync(target);
    for (const extra of [[], ['--fix-dry-run']]) {
      const result = runJson(['--stdin', '--stdin-filename', 'named.msg.md', ...extra], { cwd: dir, input: CELL_MARKER });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(extra.length ? 0 : 1);
      expect(result.reports.map((r) => r.filePath)).toEqual([target]);
      if (extra[0] === '--fix-dry-run') expect(result.reports[0]!.output).toBe(FIXED);
    }
    // --stdin --fix prints the fixed text and writes nothing, whatever the name.
    const fix = run(['--stdin', '--stdin-filename', 'named.msg.md', '--fix'], { cwd: dir, input: CELL_MARKER });
    expect(fix).toEqual({ status: 0, stdout: FIXED, stderr: '' });
    expect(readdirSync(target)).toEqual(['inside.msg.md']);
    expect(statSync(target).mtimeMs).toBe(before.mtimeMs);
    expect(lstatSync(target).isDirectory()).toBe(true);
  });

  it('a directory name that is not a message file name: nothing linted, said, exit 2 (issue 47), nothing written', () => {
    const dir = makeTree({ 'plain/x.md': 'x\n' });
    for (const name of ['plain', '.', '/', '..']) {
      const result = run(['--stdin', '--stdin-filename', name, '--fix-dry-run'], { cwd: dir, input: CELL_MARKER });
      expect([result.status, result.stderr, result.stdout]).toEqual([2, `msglint: ${name}: not a message file (a *.msg.md file, or a *.md file whose frontmatter declares message_section)\n`, '']);
    }
    expect(readdirSync(dir)).toEqual(['plain']);
  });
});

describe('--fix on files it may not write', () => {
  it('as an unprivileged user: a read-only file is refused, a writable file in a read-only directory fixed in place, the others fixed, exit 2', (context) => {
    const dir = openTree({ 'ro.msg.md': CELL_MARKER, 'rw.msg.md': CELL_MARKER, 'rodir/in.msg.md': CELL_MARKER }, true);
    chmodSync(path.join(dir, 'ro.msg.md'), 0o444);
    chmodSync(path.join(dir, 'rodir'), 0o555);
    const ro = statSync(path.join(dir, 'ro.msg.md'));
    try {
      const result = runUnprivileged(['--fix'], { cwd: dir });
      if (!result) return context.skip(whyNotUnprivileged());
      expect(result.status).toBe(2);
      expect(lines(result.stderr)).toEqual(['msglint: ro.msg.md: cannot write fixes: permission denied']);
      expect(readFileSync(path.join(dir, 'ro.msg.md'), 'utf8')).toBe(CELL_MARKER);
      expect(readFileSync(path.join(dir, 'rodir/in.msg.md'), 'utf8')).toBe(FIXED);
      expect(readFileSync(path.join(dir, 'rw.msg.md'), 'utf8')).toBe(FIXED);
      const after = statSync(path.join(dir, 'ro.msg.md'));
      expect([after.ino, after.mode, after.mtimeMs]).toEqual([ro.ino, ro.mode, ro.mtimeMs]);
      // No temporary file left behind.
      expect(readdirSync(dir).filter((n) => n.includes('msglint-tmp'))).toEqual([]);
      expect(readdirSync(path.join(dir, 'rodir'))).toEqual(['in.msg.md']);
    } finally {
      chmodSync(path.join(dir, 'rodir'), 0o755);
    }
  });

  it('as root: an immutable file (chattr +i) is refused and left as it was, exit 2', (context) => {
    if (!isRoot) return context.skip('chattr +i needs root');
    const dir = makeTree({ 'frozen.msg.md': CELL_MARKER, 'other.msg.md': CELL_MARKER });
    const frozen = path.join(dir, 'frozen.msg.md');
    if (!chattr('+i', frozen)) return context.skip('chattr +i is not supported on this file system');
    try {
      const result = run(['--fix'], { cwd: dir });
      expect(result.status).toBe(2);
      expect(lines(result.stderr)).toEqual(['msglint: frozen.msg.md: cannot write fixes: permission denied']);
      expect(readFileSync(frozen, 'utf8')).toBe(CELL_MARKER);
      expect(readFileSync(path.join(dir, 'other.msg.md'), 'utf8')).toBe(FIXED);
      expect(readdirSync(dir).filter((n) => n.includes('msglint-tmp'))).toEqual([]);
    } finally {
      chattr('-i', frozen);
    }
  });

  it('as root: a file without write permission is fixed, as root may write it (and keeps its mode)', (context) => {
    if (!isRoot) return context.skip('only root ignores the mode');
    const dir = makeTree({ 'ro.msg.md': CELL_MARKER });
    const file = path.join(dir, 'ro.msg.md');
    chmodSync(file, 0o444);
    expect(run(['--fix'], { cwd: dir }).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(FIXED);
    expect(statSync(file).mode & 0o7777).toBe(0o444);
  });

  it('a directory named like a message file is walked, not written', () => {
    const dir = makeTree({ 'dir.msg.md/a.msg.md': CELL_MARKER });
    const result = run(['--fix', 'dir.msg.md'], { cwd: dir });
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(readFileSync(path.join(dir, 'dir.msg.md/a.msg.md'), 'utf8')).toBe(FIXED);
    expect(existsSync(path.join(dir, 'dir.msg.md'))).toBe(true);
  });
});

// How --fix writes, observed from outside (the CLI as a process on temporary
// directories), with a preload module that records every writeFileSync and
// renameSync the CLI makes (node --import, the same in worker threads):
//  - each fixed file is written to a new temporary file in the directory of
//    the file it replaces (same file system, so the rename is atomic), then
//    renamed over it; the file itself is never opened for writing, so no
//    reader ever sees it truncated or half written;
//  - the permission bits (and, when root fixes another user's file, the
//    owner) are kept;
//  - only files whose content changed are written: the others keep their
//    inode and modification time;
//  - a symbolic link is written through (it stays a link, its target gets
//    the fixes) only when the target lies inside the linted paths; a link
//    (or a linked directory) that leads outside is refused with a message,
//    and the run exits 2. "Inside" means: under a directory named on the
//    command line (`.` by default), under the directory holding a file
//    named on it, or under a glob's base directory;
//  - where a rename would change more than the content (a file with several
//    hard links, a folder the user may not write, a file whose owner or
//    group the user cannot give the new file), the file is written in place.

import { chmodSync, chownSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CELL_MARKER, CLEAN, cleanupTempDirs, lines, makeTree, run, runUnprivileged, whyNotUnprivileged } from '../cli/helpers.js';

afterAll(cleanupTempDirs);

const FIXED = CELL_MARKER.replace('#%%', '# %%');
const isRoot = process.getuid?.() === 0;

const PRELOAD = `
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const fd = fs.openSync(process.env.MSGLINT_FS_LOG, 'a');
const writeSync = fs.writeSync;
const record = (entry) => writeSync(fd, JSON.stringify(entry) + '\\n');
const original = { writeFileSync: fs.writeFileSync, renameSync: fs.renameSync, openSync: fs.openSync };
fs.writeFileSync = function (file, data, options) {
  record({ op: 'writeFile', path: typeof file === 'string' ? file : String(file), flag: typeof options === 'object' ? options?.flag : undefined });
  return original.writeFileSync.call(this, file, data, options);
};
fs.renameSync = function (from, to) {
  record({ op: 'rename', from: String(from), to: String(to) });
  return original.renameSync.call(this, from, to);
};
fs.openSync = function (file, flags, mode) {
  if (typeof flags === 'string' && /[wa+]/.test(flags)) record({ op: 'open', path: String(file), flags });
  return original.openSync.call(this, file, flags, mode);
};
syncBuiltinESMExports();
`;

type FsOp = { op: 'writeFile'; path: string; flag?: string } | { op: 'rename'; from: string; to: string } | { op: 'open'; path: string; flags: string };

let preloadDir: string;
beforeAll(() => {
  preloadDir = makeTree({ 'preload.mjs': PRELOAD });
});

/** Runs the CLI recording its writes and renames. */
function runRecorded(args: string[], cwd: string): { status: number | null; stderr: string; ops: FsOp[] } {
  const log = path.join(preloadDir, `log-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(log, '');
  const result = run(args, { cwd, env: { MSGLINT_FS_LOG: log, NODE_OPTIONS: `--import ${path.join(preloadDir, 'preload.mjs')}` } });
  const ops = readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as FsOp)
    .filter((o) => !('path' in o) || !o.path.endsWith('.jsonl'));
  return { status: result.status, stderr: result.stderr, ops };
}

describe('--fix writes through a temporary file and a rename', () => {
  for (const concurrency of [[], ['--concurrency', '2']]) {
    it(`in the same directory, never opening the file itself for writing${concurrency.length ? ' (on worker threads)' : ''}`, () => {
      const dir = makeTree({ 'a.msg.md': CELL_MARKER, 'sub/deeper/b.msg.md': CELL_MARKER, 'clean.msg.md': CLEAN });
      const { status, stderr, ops } = runRecorded(['--fix', ...concurrency], dir);
      expect([status, stderr]).toEqual([0, '']);
      const renames = ops.filter((o): o is Extract<FsOp, { op: 'rename' }> => o.op === 'rename');
      expect(renames.map((r) => path.relative(dir, r.to)).sort()).toEqual(['a.msg.md', 'sub/deeper/b.msg.md']);
      for (const r of renames) {
        expect(path.dirname(r.from)).toBe(path.dirname(r.to));
        expect(path.basename(r.from)).toMatch(/^\..*\.msglint-tmp$/);
        // The temporary file was created fresh (O_EXCL) before the rename.
        const write = ops.find((o) => o.op === 'writeFile' && o.path === r.from) as Extract<FsOp, { op: 'writeFile' }> | undefined;
        expect(write?.flag).toBe('wx');
        expect(ops.indexOf(write!)).toBeLessThan(ops.indexOf(r));
      }
      // Nothing was written to the files themselves.
      const targets = new Set(renames.map((r) => r.to));
      expect(ops.filter((o) => (o.op === 'writeFile' || o.op === 'open') && targets.has(o.path))).toEqual([]);
      expect(readFileSync(path.join(dir, 'a.msg.md'), 'utf8')).toBe(FIXED);
      expect(readdirSync(dir).filter((n) => n.endsWith('.msglint-tmp'))).toEqual([]);
    });
  }

  it('keeps the permission bits, special bits included', () => {
    const modes = { 'a.msg.md': 0o640, 'b.msg.md': 0o755, 'c.msg.md': 0o600, 'd.msg.md': 0o2775, 'e.msg.md': 0o444 };
    const dir = makeTree(Object.fromEntries(Object.keys(modes).map((n) => [n, CELL_MARKER])));
    for (const [name, mode] of Object.entries(modes)) chmodSync(path.join(dir, name), mode);
    const result = run(['--fix'], { cwd: dir });
    // e.msg.md is read-only: root may write it (see fs.test.ts for other users).
    expect(result.status).toBe(isRoot ? 0 : 2);
    for (const [name, mode] of Object.entries(modes)) {
      if (!isRoot && name === 'e.msg.md') continue;
      expect(readFileSync(path.join(dir, name), 'utf8')).toBe(FIXED);
      expect((statSync(path.join(dir, name)).mode & 0o7777).toString(8), name).toBe(mode.toString(8));
    }
  });

  it('keeps the owner when root fixes another user’s file', (context) => {
    if (!isRoot) return context.skip('only root can give a file to another user');
    const dir = makeTree({ 'theirs.msg.md': CELL_MARKER });
    const file = path.join(dir, 'theirs.msg.md');
    chownSync(file, 65534, 65534);
    expect(run(['--fix'], { cwd: dir }).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(FIXED);
    expect([statSync(file).uid, statSync(file).gid]).toEqual([65534, 65534]);
  });

  it('writes only the files whose content changed (same inode and mtime for the others)', () => {
    const dir = makeTree({ 'clean.msg.md': CLEAN, 'fix.msg.md': CELL_MARKER, 'unfixable.msg.md': CLEAN.replace('[markdown]', '[nonsense]'), 'plain.md': '#%% not a message file\n' });
    const before = Object.fromEntries(readdirSync(dir).map((n) => [n, statSync(path.join(dir, n))]));
    const { ops } = runRecorded(['--fix'], dir);
    for (const name of ['clean.msg.md', 'unfixable.msg.md', 'plain.md']) {
      const after = statSync(path.join(dir, name));
      expect([after.ino, after.mtimeMs], name).toEqual([before[name]!.ino, before[name]!.mtimeMs]);
    }
    expect(statSync(path.join(dir, 'fix.msg.md')).ino).not.toBe(before['fix.msg.md']!.ino);
    expect(ops.filter((o) => o.op === 'rename').map((o) => path.basename((o as { to: string }).to))).toEqual(['fix.msg.md']);
    // A second run has nothing to write.
    expect(runRecorded(['--fix'], dir).ops.filter((o) => o.op !== 'open')).toEqual([]);
  });

  it('--fix-dry-run writes nothing', () => {
    const dir = makeTree({ 'fix.msg.md': CELL_MARKER });
    const { ops } = runRecorded(['--fix-dry-run', '--format', 'json'], dir);
    expect(ops.filter((o) => o.op !== 'open')).toEqual([]);
    expect(readFileSync(path.join(dir, 'fix.msg.md'), 'utf8')).toBe(CELL_MARKER);
  });

  it('a hard link is written in place: both names see the fix, one inode (a rename would split them)', () => {
    const dir = makeTree({ 'a.msg.md': CELL_MARKER, 'elsewhere/keep.md': 'x' });
    linkSync(path.join(dir, 'a.msg.md'), path.join(dir, 'elsewhere', 'same.txt'));
    const before = statSync(path.join(dir, 'a.msg.md'));
    expect(run(['--fix', 'a.msg.md'], { cwd: dir }).status).toBe(0);
    expect(readFileSync(path.join(dir, 'a.msg.md'), 'utf8')).toBe(FIXED);
    expect(readFileSync(path.join(dir, 'elsewhere', 'same.txt'), 'utf8')).toBe(FIXED);
    expect([statSync(path.join(dir, 'a.msg.md')).ino, statSync(path.join(dir, 'a.msg.md')).nlink]).toEqual([before.ino, 2]);
  });

  it('a group-writable file fixed by another member of the group keeps its owner and mode (written in place)', (context) => {
    if (!isRoot) return context.skip('making a file owned by another user needs root (chown)');
    const dir = makeTree({ 'shared.msg.md': CELL_MARKER });
    const file = path.join(dir, 'shared.msg.md');
    // The folder belongs to nobody (who could rename in it), the file to root, writable by nobody's group.
    chownSync(dir, 65534, 65534);
    chmodSync(dir, 0o755);
    chownSync(file, 0, 65534);
    chmodSync(file, 0o664);
    const result = runUnprivileged(['--fix'], { cwd: dir });
    if (!result) return context.skip(whyNotUnprivileged());
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(readFileSync(file, 'utf8')).toBe(FIXED);
    const after = statSync(file);
    expect([after.uid, after.gid, (after.mode & 0o7777).toString(8)]).toEqual([0, 65534, '664']);
  });
});

describe('--fix and symbolic links', () => {
  /** A project directory and, next to it, a directory outside it. */
  function layout(): { root: string; project: string; outside: string } {
    const root = makeTree({ 'project/own.msg.md': CELL_MARKER, 'project/real/target.msg.md': CELL_MARKER, 'outside/secret.msg.md': CELL_MARKER, 'outside/dir/x.msg.md': CELL_MARKER });
    const project = path.join(root, 'project');
    const outside = path.join(root, 'outside');
    return { root, project, outside };
  }

  it('writes through a link whose target is inside the linted tree; the link stays a link', () => {
    const { project } = layout();
    symlinkSync('real/target.msg.md', path.join(project, 'link.msg.md'));
    const result = run(['--fix', 'link.msg.md'], { cwd: project });
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(lstatSync(path.join(project, 'link.msg.md')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(project, 'link.msg.md'))).toBe('real/target.msg.md');
    expect(readFileSync(path.join(project, 'real/target.msg.md'), 'utf8')).toBe(FIXED);
  });

  it('refuses a link to a file outside, and a file in a linked directory outside; fixes the rest; exit 2', () => {
    const { project, outside } = layout();
    symlinkSync(path.join(outside, 'secret.msg.md'), path.join(project, 'secret.msg.md'));
    symlinkSync('../outside/dir', path.join(project, 'linked'));
    for (const args of [['--fix'], ['--fix', '--concurrency', '2'], ['--fix', '.'], ['--fix', 'secret.msg.md', 'linked', 'own.msg.md'], ['--fix', '**/*.msg.md']]) {
      writeFileSync(path.join(project, 'own.msg.md'), CELL_MARKER);
      const result = run(args, { cwd: project });
      expect(result.status, args.join(' ')).toBe(2);
      const expected = ['', 'msglint: secret.msg.md: cannot write fixes: the file is a symbolic link (or lies in a linked directory) leading to OUTSIDE/secret.msg.md, outside the linted paths; not written'];
      const got = lines(result.stderr).map((l) => l.split(outside).join('OUTSIDE')).sort();
      // A directory link met during a walk is not followed, so linked/x.msg.md
      // is neither linted nor written; `linked` named on the command line is
      // a linted path itself: its files may be written.
      expect(got, args.join(' ')).toEqual([expected[1]]);
      if (args[1] === 'secret.msg.md') writeFileSync(path.join(outside, 'dir/x.msg.md'), CELL_MARKER);
      expect(readFileSync(path.join(outside, 'secret.msg.md'), 'utf8')).toBe(CELL_MARKER);
      expect(readFileSync(path.join(outside, 'dir/x.msg.md'), 'utf8')).toBe(CELL_MARKER);
      expect(readFileSync(path.join(project, 'own.msg.md'), 'utf8')).toBe(FIXED);
      expect(readdirSync(outside).filter((n) => n.endsWith('.msglint-tmp'))).toEqual([]);
    }
  });

  it('refuses a link named on the command line when its target is outside the link’s directory', () => {
    const { project, outside } = layout();
    mkdirSync(path.join(project, 'docs'));
    symlinkSync(path.join(outside, 'secret.msg.md'), path.join(project, 'docs', 'shared.msg.md'));
    const result = run(['--fix', 'docs/shared.msg.md'], { cwd: project });
    expect(result.status).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(/docs\/shared\.msg\.md: cannot write fixes: .* outside the linted paths; not written/);
    expect(readFileSync(path.join(outside, 'secret.msg.md'), 'utf8')).toBe(CELL_MARKER);
  });

  it('a linted path that is itself a link (to a directory elsewhere) is the tree: its files are fixed', () => {
    const { root, outside } = layout();
    symlinkSync(outside, path.join(root, 'project', 'ext'));
    const result = run(['--fix', 'ext'], { cwd: path.join(root, 'project') });
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(readFileSync(path.join(outside, 'secret.msg.md'), 'utf8')).toBe(FIXED);
  });
});

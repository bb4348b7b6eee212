import { accessSync, chmodSync, chownSync, closeSync, constants, fstatSync, openSync, readSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { decodeBytes, type DecodedText } from '../base/decode.js';
import { loadCrypto, loadPicomatch } from '../base/lazy.js';
import { leavesBase } from '../config/paths.js';

/** A file's text, what it was read as and what was wrong with its bytes (server/base/decode.ts). */
export type SourceText = DecodedText;

/** One per thread (module state is per worker). */
let readBuffer = Buffer.allocUnsafe(64 * 1024);
/** A buffer grown for a larger file is kept up to this size, not beyond. */
const KEPT_BUFFER_MAX = 4 * 1024 * 1024;

/**
 * Files are read synchronously, on purpose: fs.promises.readFile costs four
 * thread-pool round trips (open, fstat, read, close) per file and is much
 * slower than readFileSync on a tree of small message files
 * (docs/performance.md), while linting is synchronous CPU work that leaves
 * nothing for asynchronous reads to overlap with.
 *
 * The bytes of a file, in a buffer that the next call reuses: use them (hash,
 * decode) before reading another file. Against readFileSync, no fstat and no
 * new buffer per file, which counts on a tree of many small files.
 * Throws as readFileSync does (ENOENT, EISDIR, EACCES...).
 */
export function readBytes(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    return readAll(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * What --cache keeps of a file's status to know, without reading the file,
 * that its bytes are those it hashed: size, modification and change times
 * (milliseconds, with the file system's precision) and inode number.
 */
export type FileStamp = [size: number, mtimeMs: number, ctimeMs: number, ino: number];

/**
 * Stamps of files changed this recently are not kept. A write lands in the
 * file system's current time tick (up to 2 s on FAT, 1 s on ext3 or HFS+), so
 * a file written again in the tick of the stamp, after it was read, would keep
 * the stamp; a stamp two seconds older than the read cannot be shared so.
 */
export const RECENT_MS = 2000;

/**
 * readBytes, and the stamp of the file, taken before the read: a write during
 * the read then changes what the next run sees. The stamp is undefined when
 * the file changed within RECENT_MS of `now` (or in the future).
 */
export function readStamped(file: string, now = Date.now()): { bytes: Buffer; stamp: FileStamp | undefined } {
  const fd = openSync(file, 'r');
  try {
    const stamp = stampOf(fstatSync(fd), now);
    return { bytes: readAll(fd), stamp };
  } finally {
    closeSync(fd);
  }
}

export function stampOf(stats: Stats, now: number): FileStamp | undefined {
  if (!(stats.mtimeMs < now - RECENT_MS && stats.ctimeMs < now - RECENT_MS)) return undefined;
  return [stats.size, stats.mtimeMs, stats.ctimeMs, stats.ino];
}

/** Whether the file's status still matches `stamp` (one stat, no read). */
export function hasStamp(file: string, stamp: FileStamp): boolean {
  const s = statSync(file, { throwIfNoEntry: false });
  return s !== undefined && s.size === stamp[0] && s.mtimeMs === stamp[1] && s.ctimeMs === stamp[2] && s.ino === stamp[3];
}

function readAll(fd: number): Buffer {
  let buffer = readBuffer;
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
      if (buffer.length <= KEPT_BUFFER_MAX) readBuffer = buffer;
    }
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) return buffer.subarray(0, length);
    length += n;
  }
}

/**
 * UTF-8, or the UTF-16 a byte order mark names. The text keeps a BOM as
 * U+FEFF, so a fixed file is written back (encodeText) with the BOM and the
 * encoding it had.
 */
export function decode(bytes: Uint8Array): SourceText {
  return decodeBytes(bytes);
}

/**
 * The real directories that `--fix` may write in: each directory named on
 * the command line (`.` when none is), the directory holding each named
 * file, and the base directory of each glob. A file reached through a
 * symbolic link (to the file or to a directory above it) whose real path
 * lies outside all of them is not written.
 */
export function writableRoots(paths: readonly string[], cwd: string): string[] {
  const roots: string[] = [];
  for (const arg of paths.length ? paths : ['.']) {
    const absolute = path.resolve(cwd, arg);
    let dir: string;
    try {
      dir = statSync(absolute).isDirectory() ? absolute : path.dirname(absolute);
    } catch {
      // Not a path: a glob (discovery reads it the same way).
      const pattern = arg.split(path.sep).join('/').replace(/^(\.\/)+/, '');
      dir = path.resolve(cwd, loadPicomatch().scan(pattern).base || '.');
    }
    try {
      roots.push(realpathSync(dir));
    } catch {
      // Nothing there, so nothing is written there.
    }
  }
  return roots;
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return !leavesBase(relative);
}

/** Whether the user may create and rename files in `dir`. */
function mayWrite(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Writes over the file itself: it keeps its inode, links, owner and mode, but a crash may leave it half written. */
function writeInPlace(target: string, text: string | Uint8Array): void {
  writeFileSync(target, text);
}

/** Thrown instead of writing through a symbolic link that leads out of the linted paths. */
export class OutsideRootsError extends Error {
  override readonly name = 'OutsideRootsError';
  constructor(readonly target: string) {
    super(`the file is a symbolic link (or lies in a linked directory) leading to ${target}, outside the linted paths; not written`);
  }
}

/**
 * Replaces a file's content without a window in which it is truncated or half
 * written: write a temporary file next to it (same file system, so rename is
 * atomic) with the original's permission bits, then rename it over the
 * original. Where a rename would change more than the content, the file is
 * written in place instead: a file with several hard links (the rename would
 * split them), one in a folder the user may not write (the rename is not
 * allowed), and one whose owner or group the temporary file cannot take
 * (a group-writable file fixed by another member would change hands). A symlink is resolved first so the link keeps pointing at the
 * updated target instead of being replaced by a regular file; with `roots`
 * (see writableRoots), a target outside them is refused (OutsideRootsError).
 * A file the user may not write (its mode, an immutable flag, a read-only
 * file system) is refused with EACCES/EPERM/EROFS as an in-place write would
 * be, although the rename alone would replace it. Synchronous for
 * the reason readBytes is, and so that fixing thousands of files never holds
 * thousands of descriptors open at once.
 */
export function writeFileAtomic(file: string, text: string | Uint8Array, roots?: readonly string[]): void {
  const target = realpathSync(file);
  if (roots && !roots.some((root) => isInside(target, root))) throw new OutsideRootsError(target);
  accessSync(target, constants.W_OK);
  const stats = statSync(target);
  if (stats.nlink > 1 || !mayWrite(path.dirname(target))) return writeInPlace(target, text);
  const mode = stats.mode & 0o7777;
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${loadCrypto().randomBytes(4).toString('hex')}.msglint-tmp`,
  );
  try {
    writeFileSync(temp, text, { mode, flag: 'wx' });
    const made = statSync(temp);
    if (made.uid !== stats.uid || made.gid !== stats.gid) {
      // Root may give the file back to anyone, the owner to a group of theirs; otherwise it would change hands.
      try {
        chownSync(temp, stats.uid, stats.gid);
      } catch {
        rmSync(temp, { force: true });
        return writeInPlace(target, text);
      }
    }
    // The mode given to writeFileSync is filtered by the umask (and chown clears set-id bits); set it exactly.
    chmodSync(temp, mode);
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

import { accessSync, chmodSync, chownSync, closeSync, constants, openSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, writeSync, type Stats } from 'node:fs';
import path from 'node:path';
import { garbageCollector } from '../base/collect.js';
import { decodeBytes, type DecodedText } from '../base/decode.js';
import { loadCrypto, loadPicomatch } from '../base/lazy.js';
import { MESSAGE_FILE_MAX_BYTES, readRegular, type ReusedBuffer } from '../base/read-file.js';
import { leavesBase } from '../config/paths.js';

/** A file's text, what it was read as and what was wrong with its bytes (server/base/decode.ts). */
export type SourceText = DecodedText;

/**
 * The buffer message files are read into, one per thread (module state is
 * per worker); a buffer grown for a larger file is kept up to 4 MiB.
 */
const reuse: ReusedBuffer = { buffer: Buffer.allocUnsafe(64 * 1024), keepBytes: 4 * 1024 * 1024 };

/**
 * A file's bytes, read, hashed when asked and decoded, in a frame of its own
 * so that nothing holds them once it returns. A file larger than the reused
 * buffer is read into a buffer of its own, which V8 would keep beside the
 * file's tree until its next full collection (a 50 MB file: 50 MB more at the
 * peak): it is collected at once. `skip` sees the bytes' digest (when
 * `hash`) and may stop before they are decoded (a cached report).
 */
export function readSource(
  file: string,
  hash: boolean,
  skip: (digest: string) => boolean,
): { stats: Stats; digest?: string; source?: SourceText } {
  const read = readAndDecode(file, hash, skip);
  if (read.stats.size > reuse.keepBytes) garbageCollector()?.();
  return read;
}

/** A message file's text (readSource, without a digest). */
export function readSourceText(file: string): SourceText {
  return readSource(file, false, () => false).source!;
}

function readAndDecode(file: string, hash: boolean, skip: (digest: string) => boolean): { stats: Stats; digest?: string; source?: SourceText } {
  const { bytes, stats } = readMessageFile(file);
  const digest = hash ? loadCrypto().createHash('sha1').update(bytes).digest('base64') : undefined;
  if (digest !== undefined && skip(digest)) return { stats, digest };
  return { stats, digest, source: decode(bytes) };
}

/**
 * Files are read synchronously, on purpose: fs.promises.readFile costs four
 * thread-pool round trips (open, fstat, read, close) per file and is much
 * slower than readFileSync on a tree of small message files
 * (docs/performance.md), while linting is synchronous CPU work that leaves
 * nothing for asynchronous reads to overlap with.
 *
 * The bytes of a message file, through the guarded reader (a regular file of
 * at most MESSAGE_FILE_MAX_BYTES, else NotReadableError), in a buffer that the
 * next call reuses: use them (hash, decode) before reading another file.
 * Against readFileSync, no new buffer per file, which counts on a tree of many
 * small files. `stats`: the file's status as of the open, before the read.
 * Throws as readFileSync does (ENOENT, EISDIR, EACCES...).
 */
export function readMessageFile(file: string): { bytes: Buffer; stats: Stats } {
  return readRegular(file, MESSAGE_FILE_MAX_BYTES, reuse);
}

/**
 * What --cache keeps of a file's status to know, without reading the file,
 * that its bytes are those it hashed, and what --fix compares before it
 * writes: size, modification and change times (milliseconds, with the file
 * system's precision) and inode number.
 */
export type FileStamp = [size: number, mtimeMs: number, ctimeMs: number, ino: number];

/**
 * Stamps of files changed this recently are not kept. A write lands in the
 * file system's current time tick (up to 2 s on FAT, 1 s on ext3 or HFS+), so
 * a file written again in the tick of the stamp, after it was read, would keep
 * the stamp; a stamp two seconds older than the read cannot be shared so.
 */
export const RECENT_MS = 2000;

export function statusOf(stats: Stats): FileStamp {
  return [stats.size, stats.mtimeMs, stats.ctimeMs, stats.ino];
}

/** The stamp --cache may keep: undefined when the file changed within RECENT_MS of `now` (or in the future). */
export function stampOf(stats: Stats, now: number): FileStamp | undefined {
  if (!(stats.mtimeMs < now - RECENT_MS && stats.ctimeMs < now - RECENT_MS)) return undefined;
  return statusOf(stats);
}

/** Whether the file's status still matches `stamp` (one stat, no read). */
export function hasStamp(file: string, stamp: FileStamp): boolean {
  const s = statSync(file, { throwIfNoEntry: false });
  return s !== undefined && isStamped(s, stamp);
}

function isStamped(s: Stats, stamp: FileStamp): boolean {
  return s.size === stamp[0] && s.mtimeMs === stamp[1] && s.ctimeMs === stamp[2] && s.ino === stamp[3];
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
function writeInPlace(target: string, text: FileContent, unchangedSince: FileStamp | undefined): void {
  checkUnchanged(target, unchangedSince);
  writeContent(target, text);
}

/**
 * What a file is written with: its text, its bytes, or its text in pieces
 * (an export, never made one string: base/json-chunks.ts), iterated once
 * per write from the start.
 */
export type FileContent = string | Uint8Array | Iterable<string>;

/** writeFileSync for FileContent: pieces are written one after another, each encoded on its own. */
export function writeContent(file: string, content: FileContent, options: { mode?: number; flag?: string } = {}): void {
  if (typeof content === 'string' || content instanceof Uint8Array) return writeFileSync(file, content, options);
  const fd = openSync(file, options.flag ?? 'w', options.mode);
  try {
    for (const piece of content) {
      const bytes = Buffer.from(piece);
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
    }
  } finally {
    closeSync(fd);
  }
}

/** Thrown instead of writing through a symbolic link that leads out of the linted paths. */
export class OutsideRootsError extends Error {
  override readonly name = 'OutsideRootsError';
  constructor(readonly target: string) {
    super(`the file is a symbolic link (or lies in a linked directory) leading to ${target}, outside the linted paths; not written`);
  }
}

/** Thrown instead of writing over a file that changed since it was read (an agent appending to its log while --fix ran). */
export class ChangedSinceReadError extends Error {
  override readonly name = 'ChangedSinceReadError';
  constructor() {
    super('changed while it was being fixed; not written');
  }
}

/**
 * Throws ChangedSinceReadError unless `target`'s status is still `stamp`.
 * Checked just before the rename (or the write in place): what is appended
 * after the check and before the rename, microseconds later, is still lost;
 * only a lock every writer takes would close that window.
 */
function checkUnchanged(target: string, stamp: FileStamp | undefined): void {
  if (stamp && !isStamped(statSync(target), stamp)) throw new ChangedSinceReadError();
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
 * be, although the rename alone would replace it. With `unchangedSince` (the
 * status of the file when it was read), a file whose status moved since is
 * left alone (ChangedSinceReadError): the fix was made from a text it no
 * longer holds. Synchronous for the reason readMessageFile is, and so that
 * fixing thousands of files never holds thousands of descriptors open at once.
 */
export function writeFileAtomic(file: string, text: FileContent, roots?: readonly string[], unchangedSince?: FileStamp): void {
  const target = realpathSync(file);
  if (roots && !roots.some((root) => isInside(target, root))) throw new OutsideRootsError(target);
  accessSync(target, constants.W_OK);
  const stats = statSync(target);
  if (stats.nlink > 1 || !mayWrite(path.dirname(target))) return writeInPlace(target, text, unchangedSince);
  const mode = stats.mode & 0o7777;
  const temp = temporaryName(target);
  try {
    writeContent(temp, text, { mode, flag: 'wx' });
    const made = statSync(temp);
    if (made.uid !== stats.uid || made.gid !== stats.gid) {
      // Root may give the file back to anyone, the owner to a group of theirs; otherwise it would change hands.
      try {
        chownSync(temp, stats.uid, stats.gid);
      } catch {
        removeQuietly(temp);
        return writeInPlace(target, text, unchangedSince);
      }
    }
    // The mode given to writeContent is filtered by the umask (and chown clears set-id bits); set it exactly.
    chmodSync(temp, mode);
    checkUnchanged(target, unchangedSince);
    renameSync(temp, target);
  } catch (error) {
    removeQuietly(temp);
    throw error;
  }
}

/** A name for a temporary file next to `target`, which no one else picks. */
export function temporaryName(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${loadCrypto().randomBytes(4).toString('hex')}.msglint-tmp`);
}

/** Removes a temporary file left by a failed write; a failure to remove it must not hide the write's own error. */
export function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Its folder is gone or closed: the write's error says why.
  }
}

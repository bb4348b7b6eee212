// Reading a file that a repository supplies (a message file, a config, a
// .gitignore, the cache, a workspace file in the language server) without
// trusting what it is: a link to /dev/zero streams forever, a FIFO blocks
// forever, and a file under /proc says it is a regular file of 0 bytes and
// then reads on for gigabytes. So the file is opened without blocking,
// checked on the open descriptor (no window for a swap between check and
// read), and read only when it is a regular file, never past the size limit,
// whatever size it states.

import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** Config files are a few hundred bytes; anything past this is not a config. */
export const CONFIG_MAX_BYTES = 1024 * 1024;

/**
 * The largest message file msglint reads (the command, export, import and
 * the language server's workspace lint): 64 MiB. A 13.7 MB file takes about
 * 280 MB to lint (docs/performance.md), so this one would take over a
 * gigabyte; a conversation log past it is not read, and the user is told so
 * ("larger than 64 MiB"). A limit on what the engine is asked to lint
 * belongs to the engine; this one is what is read at all.
 */
export const MESSAGE_FILE_MAX_BYTES = 64 * 1024 * 1024;

/** Thrown for a path that is not a regular file, or one larger than allowed; `message` is meant for the user. */
export class NotReadableError extends Error {
  override readonly name = 'NotReadableError';
  constructor(
    message: string,
    readonly code: 'ENOTREG' | 'EFBIG',
  ) {
    super(message);
  }
}

/** A buffer that reads reuse (the command reads thousands of small files): grown as a file needs, kept while it is at most `keepBytes`. */
export interface ReusedBuffer {
  buffer: Buffer;
  readonly keepBytes: number;
}

// O_NONBLOCK makes open(2) of a FIFO without a writer return at once (a
// regular file ignores it). Windows has no FIFOs and no such flag.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

const CHUNK = 64 * 1024;

/**
 * The bytes of `file` when it is a regular file of at most `maxBytes`, and
 * its status as of the open (fstat on the same descriptor, before the read):
 * one open, one fstat, reads to the end. With `reuse`, the bytes are in its
 * buffer: use them (hash, decode) before the next read into it.
 * Throws NotReadableError otherwise, and as openSync does (ENOENT, EISDIR,
 * EACCES...) when it cannot be opened.
 */
export function readRegular(file: string, maxBytes: number, reuse?: ReusedBuffer): { bytes: Buffer; stats: Stats } {
  const fd = openSync(file, OPEN_FLAGS);
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read`), { code: 'EISDIR' });
    if (!stats.isFile()) throw new NotReadableError('not a regular file', 'ENOTREG');
    if (stats.size > maxBytes) throw tooLarge(maxBytes);
    // Read to the end, not to the stated size: the file may grow meanwhile,
    // and /proc's files state 0. Reading one chunk past the limit tells a
    // file over it; whole chunks, because some /proc files (pagemap) refuse
    // a read of a length that is not a multiple of 8.
    const cap = maxBytes + CHUNK;
    let buffer = reuse && reuse.buffer.length > stats.size ? reuse.buffer : Buffer.allocUnsafe(stats.size > 0 ? stats.size + 1 : Math.min(CHUNK, cap));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) break;
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, cap));
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes) throw tooLarge(maxBytes);
    if (reuse && buffer !== reuse.buffer && buffer.length <= reuse.keepBytes) reuse.buffer = buffer;
    return { bytes: buffer.subarray(0, length), stats };
  } finally {
    closeSync(fd);
  }
}

/** readRegular's bytes, in a buffer of their own. */
export function readRegularFile(file: string, maxBytes: number): Buffer {
  return readRegular(file, maxBytes).bytes;
}

function tooLarge(maxBytes: number): NotReadableError {
  return new NotReadableError(`larger than ${formatBytes(maxBytes)}`, 'EFBIG');
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}

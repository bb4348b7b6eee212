// Reading a file that a repository supplies (a config file, a .gitignore, a
// file to export) without trusting what it is: a link to /dev/zero streams
// forever and a FIFO blocks forever, so the file is opened without blocking,
// checked on the open descriptor (no window for a swap between check and
// read), and read only when it is a regular file within the size limit.

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Config files are a few hundred bytes; anything past this is not a config. */
export const CONFIG_MAX_BYTES = 1024 * 1024;

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

// O_NONBLOCK makes open(2) of a FIFO without a writer return at once (a
// regular file ignores it). Windows has no FIFOs and no such flag.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The bytes of `file` when it is a regular file of at most `maxBytes`.
 * Throws NotReadableError otherwise, and as openSync does (ENOENT, EISDIR,
 * EACCES...) when it cannot be opened.
 */
export function readRegularFile(file: string, maxBytes = Number.POSITIVE_INFINITY): Buffer {
  const fd = openSync(file, OPEN_FLAGS);
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read`), { code: 'EISDIR' });
    if (!stats.isFile()) throw new NotReadableError('not a regular file', 'ENOTREG');
    if (stats.size > maxBytes) throw new NotReadableError(`larger than ${formatBytes(maxBytes)}`, 'EFBIG');
    // Read to the end, not to the stated size: the file may grow meanwhile,
    // so the limit is checked on what is read too.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.max(Math.min(stats.size - total, 1 << 24), 64 * 1024));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw new NotReadableError(`larger than ${formatBytes(maxBytes)}`, 'EFBIG');
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}

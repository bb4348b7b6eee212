// The one guarded reader (issue 45, point 5): regular files only, never read
// past the limit, whatever size the file states.

import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MESSAGE_FILE_MAX_BYTES, NotReadableError, readRegular, readRegularFile } from '../../server/base/read-file.js';

const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'msglint-read-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readRegular', () => {
  it('reads a file up to the limit, and refuses one past it with a message for the user', () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'x'.repeat(100));
    expect(readRegularFile(file, 100).length).toBe(100);
    expect(() => readRegularFile(file, 99)).toThrow(new NotReadableError('larger than 99 bytes', 'EFBIG'));
    expect(MESSAGE_FILE_MAX_BYTES).toBe(64 * 1024 * 1024);
  });

  it('/proc/self/pagemap, which states 0 bytes and reads on for gigabytes: refused at the limit', (context) => {
    if (!existsSync('/proc/self/pagemap')) return context.skip('no /proc here');
    expect(() => readRegularFile('/proc/self/pagemap', 1024 * 1024)).toThrow(new NotReadableError('larger than 1 MiB', 'EFBIG'));
  });

  it('a device: not a regular file, nothing read', (context) => {
    if (!existsSync('/dev/zero')) return context.skip('no /dev/zero here');
    expect(() => readRegularFile('/dev/zero', MESSAGE_FILE_MAX_BYTES)).toThrow(new NotReadableError('not a regular file', 'ENOTREG'));
  });

  it('reads into a reused buffer, grown as needed and kept up to its limit', () => {
    const small = path.join(dir, 'small.txt');
    const large = path.join(dir, 'large.txt');
    writeFileSync(small, 'abc');
    writeFileSync(large, Buffer.alloc(200 * 1024, 7));
    const reuse = { buffer: Buffer.alloc(16), keepBytes: 1024 * 1024 };
    const first = readRegular(small, 1024 * 1024, reuse);
    expect([first.bytes.toString(), first.stats.size]).toEqual(['abc', 3]);
    expect(first.bytes.buffer).toBe(reuse.buffer.buffer);
    expect(readRegular(large, 1024 * 1024, reuse).bytes.length).toBe(200 * 1024);
    expect(reuse.buffer.length).toBeGreaterThan(200 * 1024);
  });
});

import { appendFileSync, chmodSync, linkSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ChangedSinceReadError, decode, hasStamp, readMessageFile, RECENT_MS, stampOf, statusOf, writeFileAtomic } from '../../server/cli/files.js';

const readBytes = (file: string) => readMessageFile(file).bytes;

const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'msglint-files-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('decode', () => {
  it('flags bytes that are not UTF-8 and keeps a BOM', () => {
    expect(decode(Buffer.from('\ufeffhé', 'utf8'))).toEqual({ text: '\ufeffhé', encoding: 'utf-8' });
    expect(decode(Buffer.from([0x68, 0xff, 0x69])).problem).toEqual({ kind: 'invalid', encoding: 'utf-8', offset: 1 });
    expect(decode(Buffer.from([0xed, 0xa0, 0x80])).problem).toMatchObject({ kind: 'invalid', offset: 0 }); // an encoded lone surrogate
  });
});

describe('readMessageFile', () => {
  it('reads whole files of any size, across the sizes where its buffer grows', () => {
    const K = 64 * 1024;
    // The last one is larger than the buffer it keeps between calls.
    const sizes = [0, 1, K - 1, K, K + 1, 3 * K, 5 * 1024 * 1024 + 7, 10, K + 2];
    sizes.forEach((size, i) => {
      const bytes = Buffer.alloc(size);
      for (let k = 0; k < size; k++) bytes[k] = (k * 31 + i) & 0xff;
      const file = path.join(dir, `read-${i}.bin`);
      writeFileSync(file, bytes);
      expect(Buffer.compare(readBytes(file), bytes), `size ${size}`).toBe(0);
    });
  });

  it('fails as readFileSync does', () => {
    expect(() => readBytes(path.join(dir, 'missing.msg.md'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(() => readBytes(dir)).toThrow(expect.objectContaining({ code: 'EISDIR' }));
  });
});

describe('file stamps', () => {
  it('are kept only for files unchanged for RECENT_MS, and match until the file changes', () => {
    const file = path.join(dir, 'stamped.msg.md');
    writeFileSync(file, 'abc');
    const stats = statSync(file);
    const changed = Math.max(stats.mtimeMs, stats.ctimeMs);
    expect(stampOf(stats, changed + RECENT_MS)).toBeUndefined();
    expect(stampOf(stats, changed - 1000)).toBeUndefined(); // changed "in the future" (clocks apart)
    const stamp = stampOf(stats, changed + RECENT_MS + 1)!;
    expect(stamp).toEqual([3, stats.mtimeMs, stats.ctimeMs, stats.ino]);
    const read = readMessageFile(file);
    expect([read.bytes.toString(), stampOf(read.stats, changed + RECENT_MS + 1)]).toEqual(['abc', stamp]);
    expect(stampOf(read.stats, Date.now())).toBeUndefined();
    expect(hasStamp(file, stamp)).toBe(true);
    // Another size: written in the same time tick, the times could be the same.
    writeFileSync(file, 'abcd');
    expect(hasStamp(file, stamp)).toBe(false);
    expect(hasStamp(path.join(dir, 'missing.msg.md'), stamp)).toBe(false);
  });
});

describe('writeFileAtomic', () => {
  it('replaces the content, keeps the permission bits and leaves no temporary file', () => {
    const file = path.join(dir, 'a.msg.md');
    writeFileSync(file, 'old');
    chmodSync(file, 0o754);
    writeFileAtomic(file, 'new ✓');
    expect(readFileSync(file, 'utf8')).toBe('new ✓');
    expect(statSync(file).mode & 0o7777).toBe(0o754);
    expect(readdirSync(dir).filter((name) => name.endsWith('.msglint-tmp'))).toEqual([]);
  });

  it('writes through a symlink', () => {
    const target = path.join(dir, 'target.msg.md');
    const link = path.join(dir, 'link.msg.md');
    writeFileSync(target, 'old');
    symlinkSync(target, link);
    writeFileAtomic(link, 'new');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('new');
  });

  it('fails without leaving debris when the file is gone', () => {
    expect(() => writeFileAtomic(path.join(dir, 'missing', 'x.msg.md'), 'x')).toThrow(/ENOENT/);
  });

  it('leaves alone a file that changed since it was read: what was appended is kept (issue 45, point 8)', () => {
    const file = path.join(dir, 'appended.msg.md');
    writeFileSync(file, '#%% Hi\n');
    const read = readMessageFile(file);
    // An agent appends a turn while the fix is made from what was read.
    appendFileSync(file, '# %% More\n');
    expect(() => writeFileAtomic(file, '# %% Hi\n', undefined, statusOf(read.stats))).toThrow(ChangedSinceReadError);
    expect(readFileSync(file, 'utf8')).toBe('#%% Hi\n# %% More\n');
    expect(readdirSync(dir).filter((name) => name.endsWith('.msglint-tmp'))).toEqual([]);
    // Unchanged since the read: written.
    const again = readMessageFile(file);
    writeFileAtomic(file, 'fixed', undefined, statusOf(again.stats));
    expect(readFileSync(file, 'utf8')).toBe('fixed');
  });

  it('leaves alone a file with several links that changed since it was read (written in place otherwise)', () => {
    const file = path.join(dir, 'linked.msg.md');
    writeFileSync(file, 'old');
    linkSync(file, path.join(dir, 'linked-too.msg.md'));
    const read = readMessageFile(file);
    appendFileSync(file, ' and more');
    expect(() => writeFileAtomic(file, 'new', undefined, statusOf(read.stats))).toThrow(ChangedSinceReadError);
    expect(readFileSync(file, 'utf8')).toBe('old and more');
  });
});

import { chmodSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decode, writeFileAtomic } from '../../server/cli/files.js';

const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'msglint-files-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('decode', () => {
  it('flags bytes that are not UTF-8 and keeps a BOM', () => {
    expect(decode(Buffer.from('\ufeffhé', 'utf8'))).toEqual({ text: '\ufeffhé', validUtf8: true });
    expect(decode(Buffer.from([0x68, 0xff, 0x69])).validUtf8).toBe(false);
    expect(decode(Buffer.from([0xed, 0xa0, 0x80])).validUtf8).toBe(false); // an encoded lone surrogate
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
});

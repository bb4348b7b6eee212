// A small reader for zip files (a .vsix is one): the central directory,
// then each entry's data, stored or deflated. Enough for the archives vsce
// writes; no zip64, no encryption.

import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

export class ZipFile {
  readonly entries: ZipEntry[] = [];

  constructor(private readonly buf: Buffer) {
    // The end of central directory record: signature 0x06054b50, within the last 64 KiB + 22 bytes.
    let eocd = -1;
    for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
      if (buf.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd === -1) throw new Error('Not a zip file: no end of central directory record');
    const count = buf.readUInt16LE(eocd + 10);
    let p = buf.readUInt32LE(eocd + 16);
    for (let n = 0; n < count; n++) {
      if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`Bad central directory entry at ${p}`);
      const method = buf.readUInt16LE(p + 10);
      const compressedSize = buf.readUInt32LE(p + 20);
      const size = buf.readUInt32LE(p + 24);
      const nameLength = buf.readUInt16LE(p + 28);
      const extraLength = buf.readUInt16LE(p + 30);
      const commentLength = buf.readUInt16LE(p + 32);
      const localHeaderOffset = buf.readUInt32LE(p + 42);
      const name = buf.toString('utf8', p + 46, p + 46 + nameLength);
      this.entries.push({ name, method, compressedSize, size, localHeaderOffset });
      p += 46 + nameLength + extraLength + commentLength;
    }
  }

  get names(): string[] {
    return this.entries.map((e) => e.name);
  }

  has(name: string): boolean {
    return this.entries.some((e) => e.name === name);
  }

  read(name: string): Buffer {
    const e = this.entries.find((x) => x.name === name);
    if (!e) throw new Error(`${name} is not in the zip`);
    const p = e.localHeaderOffset;
    if (this.buf.readUInt32LE(p) !== 0x04034b50) throw new Error(`Bad local header for ${name}`);
    const start = p + 30 + this.buf.readUInt16LE(p + 26) + this.buf.readUInt16LE(p + 28);
    const data = this.buf.subarray(start, start + e.compressedSize);
    const out = e.method === 0 ? Buffer.from(data) : e.method === 8 ? inflateRawSync(data) : undefined;
    if (!out) throw new Error(`${name}: compression method ${e.method} is not supported`);
    if (out.length !== e.size) throw new Error(`${name}: expected ${e.size} bytes, got ${out.length}`);
    return out;
  }

  text(name: string): string {
    return this.read(name).toString('utf8');
  }
}

// Bytes to text (server/base/decode.ts): UTF-8, UTF-16 by its byte order
// mark, and where bytes stop being text, checked against Node's own decoders.
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBytes, encodeText } from '../../server/base/decode.js';

const bom16 = (text: string, little: boolean): Buffer => {
  const b = Buffer.from(`\ufeff${text}`, 'utf16le');
  return little ? b : b.swap16();
};

describe('decodeBytes', () => {
  it('reads UTF-8, with or without its BOM, and keeps the BOM', () => {
    expect(decodeBytes(Buffer.from('\ufeffhé 😀', 'utf8'))).toEqual({ text: '\ufeffhé 😀', encoding: 'utf-8' });
    expect(decodeBytes(Buffer.from('hé', 'utf8'))).toEqual({ text: 'hé', encoding: 'utf-8' });
    expect(decodeBytes(new Uint8Array(0))).toEqual({ text: '', encoding: 'utf-8' });
  });

  it('reads UTF-16 of either order by its byte order mark, and encodes it back to the same bytes', () => {
    for (const little of [true, false]) {
      const bytes = bom16('# %% hé 😀\r\n', little);
      const decoded = decodeBytes(bytes);
      expect(decoded).toEqual({ text: '\ufeff# %% hé 😀\r\n', encoding: little ? 'utf-16le' : 'utf-16be' });
      expect(Buffer.from(encodeText(decoded.text, decoded.encoding))).toEqual(bytes);
    }
  });

  it('finds the first byte that is not UTF-8, where the text has its U+FFFD', () => {
    const cases: [number[], number][] = [
      [[0x61, 0xff, 0x62], 1],
      [[0x61, 0xc3], 1], // cut short
      [[0xc0, 0x80], 0], // overlong
      [[0xed, 0xa0, 0x80], 0], // a surrogate
      [[0xf4, 0x90, 0x80, 0x80], 0], // past U+10FFFF
      [[0xf0, 0x9f, 0x98, 0x80, 0x61, 0x80], 3], // after an astral character: two UTF-16 units
    ];
    for (const [bytes, offset] of cases) {
      const d = decodeBytes(Uint8Array.from(bytes));
      expect(d.problem, bytes.join(' ')).toEqual({ kind: 'invalid', encoding: 'utf-8', offset });
      expect(d.text).toBe(Buffer.from(bytes).toString('utf8'));
      expect(d.text[offset]).toBe('\ufffd');
    }
  });

  it('agrees with Node on whether any bytes are UTF-8, and on their text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (raw) => {
        const bytes = raw.map((b) => (b === 0 ? 1 : b)); // a NUL makes a binary file
        if (bytes[0] === 0xff && bytes[1] === 0xfe) bytes[0] = 0x61;
        if (bytes[0] === 0xfe && bytes[1] === 0xff) bytes[0] = 0x61;
        const d = decodeBytes(bytes);
        expect(d.text).toBe(Buffer.from(bytes).toString('utf8'));
        expect(d.problem === undefined).toBe(isUtf8(bytes));
        if (d.problem?.kind === 'invalid') expect(d.text[d.problem.offset]).toBe('\ufffd');
      }),
    );
  });

  it('finds a lone surrogate in UTF-16', () => {
    const bytes = Buffer.concat([bom16('ab', true), Buffer.from([0x00, 0xd8, 0x63, 0x00])]);
    expect(decodeBytes(bytes).problem).toEqual({ kind: 'invalid', encoding: 'utf-16le', offset: 3 });
  });

  it('calls a file with a NUL in its first 8 KB binary, not one with a NUL after', () => {
    expect(decodeBytes(Buffer.from('# %% a\0b\n')).problem).toEqual({ kind: 'binary', encoding: 'utf-8' });
    expect(decodeBytes(Buffer.from(`${'a'.repeat(8192)}\0`)).problem).toBeUndefined();
  });
});

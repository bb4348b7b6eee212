// A file's bytes as text: UTF-8, or UTF-16 when a byte order mark names it.
// Whatever the bytes are, the caller learns what they were read as and
// where they stop being text, so that a file msglint cannot read whole is
// reported rather than linted clean (rules file-encoding). TextDecoder, not
// Buffer: the language server's worker has no Buffer.

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** What decoding found that makes the text not the file's exact content. */
export type EncodingProblem =
  /** A NUL byte among the first BINARY_SNIFF_BYTES of a file without a UTF-16 byte order mark: not a text file. */
  | { kind: 'binary'; encoding: TextEncoding }
  /** Bytes that are not valid in `encoding`, the first at `offset` of the text (decoded as U+FFFD). */
  | { kind: 'invalid'; encoding: TextEncoding; offset: number };

export interface DecodedText {
  /** A byte order mark is kept as U+FEFF, so the text encodes back to the same bytes. */
  text: string;
  encoding: TextEncoding;
  problem?: EncodingProblem;
}

/** An encoding's name in messages. */
export function encodingName(encoding: TextEncoding): string {
  return encoding === 'utf-8' ? 'UTF-8' : encoding === 'utf-16le' ? 'UTF-16 (little-endian)' : 'UTF-16 (big-endian)';
}

/** As git tells binary files: a NUL among the first 8 KB (8,000 bytes for git). */
export const BINARY_SNIFF_BYTES = 8 * 1024;

type Decoder = InstanceType<typeof TextDecoder>;
const fatal = new Map<TextEncoding, Decoder>();
const lenient = new Map<TextEncoding, Decoder>();
function decoder(encoding: TextEncoding, strict: boolean): Decoder {
  const cache = strict ? fatal : lenient;
  let d = cache.get(encoding);
  if (!d) cache.set(encoding, (d = new TextDecoder(encoding, { fatal: strict, ignoreBOM: true })));
  return d;
}

/** The encoding a byte order mark names, or UTF-8 (with its BOM or none). */
function encodingOf(bytes: Uint8Array): TextEncoding {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

export function decodeBytes(bytes: Uint8Array): DecodedText {
  const encoding = encodingOf(bytes);
  if (encoding === 'utf-8') {
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).indexOf(0) !== -1) return { text: '', encoding, problem: { kind: 'binary', encoding } };
  }
  try {
    return { text: decoder(encoding, true).decode(bytes), encoding };
  } catch {
    // Not valid: decoded with U+FFFD for each bad sequence, and the first one found.
    const text = decoder(encoding, false).decode(bytes);
    const bad = encoding === 'utf-8' ? firstInvalidUtf8(bytes) : firstInvalidUtf16(bytes, encoding === 'utf-16le');
    // The text before the first bad byte is valid, so its length is where the U+FFFD stands.
    const offset = decoder(encoding, false).decode(bytes.subarray(0, bad)).length;
    return { text, encoding, problem: { kind: 'invalid', encoding, offset } };
  }
}

/** The text as bytes of `encoding` (the inverse of decodeBytes for text it decoded without a problem). */
export function encodeText(text: string, encoding: TextEncoding): Uint8Array {
  if (encoding === 'utf-8') return new TextEncoder().encode(text);
  const out = new Uint8Array(text.length * 2);
  const little = encoding === 'utf-16le';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[2 * i + (little ? 0 : 1)] = c & 0xff;
    out[2 * i + (little ? 1 : 0)] = c >> 8;
  }
  return out;
}

/** Index of the first byte of the first sequence that is not UTF-8 (overlong forms, surrogates and values past U+10FFFF included). */
function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f;
    } else return i;
    if (i + n >= b.length) return i;
    const second = b[i + 1]!;
    if (second < lo || second > hi) return i;
    for (let k = 2; k <= n; k++) {
      const x = b[i + k]!;
      if (x < 0x80 || x > 0xbf) return i;
    }
    i += n + 1;
  }
  return b.length;
}

/** Index of the first byte of the first code unit that is a lone surrogate, or of a last odd byte. */
function firstInvalidUtf16(b: Uint8Array, little: boolean): number {
  const unit = (i: number) => (little ? b[i]! | (b[i + 1]! << 8) : (b[i]! << 8) | b[i + 1]!);
  let i = 0;
  for (; i + 1 < b.length; i += 2) {
    const u = unit(i);
    if (u >= 0xdc00 && u <= 0xdfff) return i;
    if (u >= 0xd800 && u <= 0xdbff) {
      if (i + 3 >= b.length) return i;
      const next = unit(i + 2);
      if (next < 0xdc00 || next > 0xdfff) return i;
      i += 2;
    }
  }
  return i;
}

// Repairs the framing of a JSON-RPC byte stream before vscode-jsonrpc reads
// it. The library's reader trusts every header block: one without a usable
// Content-Length leaves the reader waiting (a good message in the same chunk
// is not read until more data arrives), its body is then read as the next
// header, and from there on every message is misread; a negative or absurd
// length stalls it for good. This transform passes well-formed frames
// through unchanged (bodies are streamed, never buffered) and drops anything
// else up to the next `Content-Length:` header, reporting what it dropped,
// so a client's or a proxy's mistake costs at most the messages it garbled.

import { Transform, type TransformCallback } from 'node:stream';

/** Larger Content-Length values are treated as garbage (a 1 GB message is no document). */
export const MAX_CONTENT_LENGTH = 1 << 30;
/** Header bytes kept while waiting for the blank line that ends them. */
const MAX_HEADER_BYTES = 64 * 1024;
const HEADER = Buffer.from('content-length:', 'latin1');
const BLANK_LINE = Buffer.from('\r\n\r\n', 'latin1');

/** Index of `needle` in `haystack` from `from`, ignoring ASCII case (needle in lower case). */
function indexOfIgnoreCase(haystack: Buffer, needle: Buffer, from = 0): number {
  const last = haystack.length - needle.length;
  outer: for (let i = from; i <= last; i++) {
    for (let j = 0; j < needle.length; j++) {
      let c = haystack[i + j]!;
      if (c >= 65 && c <= 90) c += 32;
      if (c !== needle[j]) continue outer;
    }
    return i;
  }
  return -1;
}

export class FramingRepair extends Transform {
  /** Header bytes not yet framed. */
  private pending: Buffer = Buffer.alloc(0);
  /** Body bytes still to pass through. */
  private bodyLeft = 0;

  constructor(private readonly onProblem: (message: string) => void = () => undefined) {
    super();
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    let data: Buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (data.length > 0) {
      if (this.bodyLeft > 0) {
        const n = Math.min(this.bodyLeft, data.length);
        this.push(data.subarray(0, n));
        this.bodyLeft -= n;
        data = data.subarray(n);
        continue;
      }
      this.pending = this.pending.length ? Buffer.concat([this.pending, data]) : data;
      data = Buffer.alloc(0) as Buffer;
      const rest = this.frameHeaders();
      if (rest) data = rest;
    }
    done();
  }

  /**
   * Reads one header block from `pending`. Returns the bytes after a good
   * block (the body and whatever follows), or undefined when more bytes are
   * needed or everything pending was dropped.
   */
  private frameHeaders(): Buffer | undefined {
    for (;;) {
      const buf = this.pending;
      const at = indexOfIgnoreCase(buf, HEADER);
      const end = buf.indexOf(BLANK_LINE);
      if (at === -1) {
        if (end !== -1) {
          // A complete header block without Content-Length.
          this.discard(end + BLANK_LINE.length, 'a header block without Content-Length');
          continue;
        }
        // Keep what could be the start of a header; drop the rest when it grows.
        if (buf.length > MAX_HEADER_BYTES) this.discard(buf.length - HEADER.length, 'bytes that are not a message header');
        return undefined;
      }
      if (end !== -1 && end < at) {
        this.discard(end + BLANK_LINE.length, 'a header block without Content-Length');
        continue;
      }
      // Anything before the header line (after a line break, it may be other headers) that is not a header is garbage.
      const lineStart = buf.lastIndexOf('\n', at) + 1;
      const before = buf.subarray(0, lineStart).toString('latin1');
      if (at > lineStart || (lineStart > 0 && !/^(?:[A-Za-z][A-Za-z0-9-]*:[^\r\n]*\r\n)*$/.test(before))) {
        this.discard(at, 'bytes that are not a message header');
        continue;
      }
      const blockEnd = buf.indexOf(BLANK_LINE, at);
      if (blockEnd === -1) {
        if (buf.length - at > MAX_HEADER_BYTES) this.discard(buf.length - HEADER.length, 'a header that never ends');
        return undefined;
      }
      const lineEnd = buf.indexOf('\r\n', at);
      const value = buf.subarray(at + HEADER.length, lineEnd).toString('latin1').trim();
      const length = /^\d+$/.test(value) ? Number(value) : NaN;
      if (!(length <= MAX_CONTENT_LENGTH)) {
        this.discard(blockEnd + BLANK_LINE.length, `a Content-Length of ${JSON.stringify(value.slice(0, 40))}`);
        continue;
      }
      this.push(Buffer.from(`Content-Length: ${length}\r\n\r\n`, 'latin1'));
      const rest = buf.subarray(blockEnd + BLANK_LINE.length);
      this.pending = Buffer.alloc(0);
      this.bodyLeft = length;
      if (length === 0) {
        // An empty body is not JSON; let the reader say so and go on.
        if (rest.length === 0) return undefined;
        this.pending = rest;
        continue;
      }
      return rest.length ? rest : undefined;
    }
  }

  private discard(n: number, what: string): void {
    this.pending = this.pending.subarray(n);
    this.onProblem(`msglint: dropped ${n} bytes of malformed JSON-RPC input (${what})`);
  }
}

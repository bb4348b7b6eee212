// OneWriteMessageWriter (server/lsp/writer.ts) frames each message in one
// write: the header's Content-Length counts the body's UTF-8 bytes, the
// frame reads back with vscode-jsonrpc's own reader, and a failed write
// rejects and is reported.
import { PassThrough, Writable } from 'node:stream';
import { StreamMessageReader, type Message } from 'vscode-languageserver/node';
import { describe, expect, it } from 'vitest';
import { OneWriteMessageWriter } from '../../server/lsp/writer.js';

/** A stream that keeps every chunk written to it. */
function recorder(): { stream: Writable; chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, chunks };
}

const messages: Message[] = [
  { jsonrpc: '2.0', id: 1, result: null } as Message,
  { jsonrpc: '2.0', method: 'window/logMessage', params: { type: 3, message: 'é 😀 \u0000 "quoted"\r\n' } } as Message,
  { jsonrpc: '2.0', id: 2, result: { items: Array.from({ length: 2000 }, (_, i) => ({ message: `problem ${i} – ü` })) } } as Message,
];

describe('OneWriteMessageWriter', () => {
  it('writes each message as one chunk whose Content-Length is the UTF-8 length of its body', async () => {
    const { stream, chunks } = recorder();
    const writer = new OneWriteMessageWriter(stream);
    for (const m of messages) await writer.write(m);
    expect(chunks).toHaveLength(messages.length);
    chunks.forEach((chunk, i) => {
      const text = chunk.toString('utf8');
      const headerEnd = text.indexOf('\r\n\r\n');
      const length = Number(/^Content-Length: (\d+)$/.exec(text.slice(0, headerEnd))![1]);
      const body = chunk.subarray(Buffer.byteLength(text.slice(0, headerEnd + 4), 'utf8'));
      expect(body.length).toBe(length);
      expect(JSON.parse(body.toString('utf8'))).toEqual(messages[i]);
    });
  });

  it("gives frames vscode-jsonrpc's reader reads back, in order", async () => {
    const pipe = new PassThrough();
    const writer = new OneWriteMessageWriter(pipe);
    const reader = new StreamMessageReader(pipe);
    const read: Message[] = [];
    const all = new Promise<void>((resolve) =>
      reader.listen((m) => {
        read.push(m);
        if (read.length === messages.length) resolve();
      }),
    );
    await Promise.all(messages.map((m) => writer.write(m)));
    await all;
    expect(read).toEqual(messages);
    reader.dispose();
  });

  it('rejects a write that fails and reports it with the message', async () => {
    const failing = new Writable({
      write(_chunk, _encoding, done) {
        done(new Error('EPIPE'));
      },
    });
    failing.on('error', () => undefined); // the writer reports it; the stream's own event is not the test's
    const writer = new OneWriteMessageWriter(failing);
    const reported: unknown[] = [];
    writer.onError(([error, message, count]) => reported.push([(error as Error).message, message, count]));
    await expect(writer.write(messages[0]!)).rejects.toThrow('EPIPE');
    expect(reported).toContainEqual(['EPIPE', messages[0], 1]);
  });
});

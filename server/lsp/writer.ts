// Writes each JSON-RPC message to the output stream in one write, header and
// body together. vscode-jsonrpc's stream writer writes the header, waits
// for that write's callback and then writes the body, so the client reads
// most messages in two pieces and wakes twice for each, a part of every
// keystroke's round trip (docs/performance.md).

import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-languageserver/node';

export class OneWriteMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private errorCount = 0;

  constructor(private readonly out: NodeJS.WritableStream) {
    super();
    out.on('error', (error: Error) => this.fireError(error));
    out.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    const body = JSON.stringify(msg);
    const length = Buffer.byteLength(body, 'utf8');
    const header = `Content-Length: ${length}\r\n\r\n`;
    // One buffer, the body encoded into it once (no copy of a large body).
    const frame = Buffer.allocUnsafe(header.length + length);
    frame.write(header, 0, 'latin1');
    frame.write(body, header.length, 'utf8');
    return new Promise((resolve, reject) => {
      this.out.write(frame, (error?: Error | null) => {
        if (!error) {
          this.errorCount = 0;
          resolve();
          return;
        }
        this.errorCount++;
        this.fireError(error, msg, this.errorCount);
        reject(error);
      });
    });
  }

  end(): void {
    this.out.end();
  }
}

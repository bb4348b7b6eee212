// Lints the server runs in steps (server/engine/steps.ts), so that a long
// lint does not hold the event loop: after a slice of steps the server lets
// pending messages in, and a `$/cancelRequest` read meanwhile cancels the
// request's token, which is read before every step. A short lint (a
// keystroke's) fits in one slice and never pauses.

import { LSPErrorCodes, ResponseError } from 'vscode-languageserver/node';

/** How long steps run before the server lets messages in. */
export const SLICE_MS = 5;

/**
 * Lets the event loop run once: Node's setImmediate (after the poll for
 * I/O, so stdin is read), or in a Web Worker a message to itself (a
 * setTimeout chain is clamped to 4 ms per turn: the last resort).
 */
export const pause: () => Promise<void> =
  typeof setImmediate === 'function'
    ? () => new Promise((resolve) => setImmediate(resolve))
    : typeof MessageChannel !== 'function'
      ? () => new Promise((resolve) => setTimeout(resolve, 0))
      : () => {
        const channel = new MessageChannel() as unknown as WebMessageChannel;
        return new Promise((resolve) => {
          channel.port1.onmessage = () => {
            channel.port1.close();
            resolve();
          };
          channel.port2.postMessage(null);
        });
      };

/** A MessageChannel as the Web has it (the project compiles without the DOM's types, and Node's ports type `on('message')` instead). */
interface WebMessageChannel {
  port1: { onmessage: (() => void) | null; close(): void };
  port2: { postMessage(message: unknown): void };
}

/** Why a lint in steps did not finish. */
export type Unfinished = 'cancelled' | 'stale';

/**
 * The protocol's answer to a request whose lint did not finish: the client
 * cancelled it (RequestCancelled), or the document changed or closed under
 * it (ServerCancelled: the result would be of a version the client no
 * longer has; `retriggerRequest` asks a client that pulls to pull again,
 * which the diagnostic requests allow).
 */
export function unfinishedError(method: string, why: Unfinished): ResponseError<unknown> {
  if (why === 'cancelled') return new ResponseError(LSPErrorCodes.RequestCancelled, `${method}: cancelled while linting`);
  return new ResponseError(LSPErrorCodes.ServerCancelled, `${method}: the document changed while it was linted`, { retriggerRequest: true });
}

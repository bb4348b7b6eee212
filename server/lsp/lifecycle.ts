// What the protocol asks of a server around its lifetime, which the
// library leaves to it: a request before `initialize` is answered
// ServerNotInitialized (-32002) and a notification then is dropped; after
// `shutdown`, every request is answered InvalidRequest and only `exit` is
// heeded; a request cancelled while still queued is answered
// RequestCancelled without running. Given to createConnection by each
// entry (main.ts, browser.ts), so every transport behaves alike. It also
// notes when the client last sent anything (quietFor), which work the
// server does on its own account waits for.

import { ErrorCodes, LSPErrorCodes, Message, ResponseError, type Connection, type ConnectionOptions, type RequestMessage } from 'vscode-languageserver/node';

/** A request that the lifecycle refuses is handed on as this one, whose handler answers the refusal. */
const REFUSED = '$/msglint/refused';

interface Refusal {
  code: number;
  message: string;
}

export interface Lifecycle {
  options: ConnectionOptions;
  /** Whether `shutdown` was received (the exit code when the input ends). */
  readonly shutDown: boolean;
  /** Milliseconds since the client's last message (Infinity before any). */
  quietFor(): number;
}

export function createLifecycle(): Lifecycle {
  let initialized = false;
  let shutDown = false;
  let lastMessage = -Infinity;
  const refusal = (method: string): Refusal | undefined => {
    if (!initialized && method !== 'initialize') return { code: ErrorCodes.ServerNotInitialized, message: `${method}: the server is not initialized yet (send initialize first)` };
    if (shutDown) return { code: ErrorCodes.InvalidRequest, message: `${method}: the server is shut down (only exit is accepted)` };
    return undefined;
  };
  return {
    get shutDown() {
      return shutDown;
    },
    quietFor: () => performance.now() - lastMessage,
    options: {
      messageStrategy: {
        handleMessage(message, next) {
          lastMessage = performance.now();
          if (Message.isRequest(message)) {
            const refused = refusal(message.method);
            if (message.method === 'initialize') initialized = true;
            else if (message.method === 'shutdown' && !refused) shutDown = true;
            if (refused) return next({ jsonrpc: '2.0', id: message.id, method: REFUSED, params: refused } as RequestMessage);
          } else if (Message.isNotification(message) && message.method !== 'exit' && !message.method.startsWith('$/') && (!initialized || shutDown)) {
            return;
          }
          return next(message);
        },
      },
      connectionStrategy: {
        cancelUndispatched: (message) => {
          const request = message as RequestMessage;
          return { jsonrpc: '2.0', id: request.id, error: { code: LSPErrorCodes.RequestCancelled, message: `${request.method}: cancelled` } };
        },
      },
    },
  };
}

/** Answers the requests the lifecycle refused; call before listen(). */
export function answerRefusals(connection: Connection): void {
  connection.onRequest(REFUSED, (refused: Refusal) => {
    throw new ResponseError(refused.code, refused.message);
  });
}

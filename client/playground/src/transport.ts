// The connection to the language server in its Web Worker, as
// @codemirror/lsp-client's Transport (JSON strings both ways). The worker
// posts message objects (vscode-languageserver's BrowserMessageWriter).
// Requests from the server to the client (workspace/configuration,
// workspace/applyEdit, client/registerCapability) are answered here:
// lsp-client answers every server request with "method not found".

import type { Transport } from '@codemirror/lsp-client';

export type ServerRequestHandlers = Record<string, (params: unknown) => unknown>;

interface JsonRpcMessage {
  id?: number | string | null;
  method?: string;
  params?: unknown;
}

/**
 * Starts the worker from the server's source, through a Blob URL: a page
 * opened from file:// may not start a worker from a file (Chromium refuses
 * it), but may from a Blob.
 */
export function startServerWorker(source: string): Worker {
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  return new Worker(url, { name: 'msglint-language-server' });
}

export function workerTransport(worker: Worker, handlers: ServerRequestHandlers): Transport {
  let subscribers: ((message: string) => void)[] = [];
  worker.addEventListener('message', (event: MessageEvent<JsonRpcMessage>) => {
    const message = event.data;
    if (message.method !== undefined && message.id !== undefined && message.id !== null) {
      void answer(message.id, message.method, message.params);
      return;
    }
    const text = JSON.stringify(message);
    for (const subscriber of subscribers) subscriber(text);
  });

  async function answer(id: number | string, method: string, params: unknown): Promise<void> {
    const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
    if (!handler) {
      worker.postMessage({ jsonrpc: '2.0', id, error: { code: -32601, message: `${method} is not supported by the playground` } });
      return;
    }
    try {
      worker.postMessage({ jsonrpc: '2.0', id, result: (await handler(params)) ?? null });
    } catch (e) {
      worker.postMessage({ jsonrpc: '2.0', id, error: { code: -32603, message: String((e as Error)?.message ?? e) } });
    }
  }

  return {
    send: (message) => worker.postMessage(JSON.parse(message)),
    subscribe: (handler) => {
      subscribers.push(handler);
    },
    unsubscribe: (handler) => {
      subscribers = subscribers.filter((s) => s !== handler);
    },
  };
}

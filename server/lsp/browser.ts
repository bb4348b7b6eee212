// The language server in a browser's Web Worker: the same server as
// main.ts serves over stdio, talking to the page (or VS Code for the Web)
// by postMessage. Bundled into one script, dist/browser/server.js, by
// server/lsp/bundle-browser.mjs; the page starts it with
// `new Worker('server.js')` and speaks LSP to it (vscode-languageclient's
// browser client, or any client that posts JSON-RPC messages).
//
// There is no disk here: a document's config is the client's `msglint`
// settings (workspace/configuration or initializationOptions), without
// config files, and output_file attributes link nowhere.

import { BrowserMessageReader, BrowserMessageWriter, createConnection, ProposedFeatures } from 'vscode-languageserver/browser';
import type { ServerEnvironment } from './environment.js';
import { answerRefusals, createLifecycle } from './lifecycle.js';
import { startServer } from './server.js';

/** The worker's global scope, as far as this file uses it (the project compiles without the DOM's types). */
interface WorkerScope {
  addEventListener(type: 'error', listener: (event: { error?: unknown; message?: string; preventDefault(): void }) => void): void;
  addEventListener(type: 'unhandledrejection', listener: (event: { reason?: unknown; preventDefault(): void }) => void): void;
}
declare const self: WorkerScope;
/** Set by the bundler to package.json's version. */
declare const MSGLINT_VERSION: string | undefined;

const browserEnvironment: ServerEnvironment = {
  version: typeof MSGLINT_VERSION === 'string' ? MSGLINT_VERSION : '0.0.0',
  fsPath: () => undefined,
  // Handled here (preventDefault), as Node's process.on handlers do: the
  // worker keeps serving, and the page's Worker gets no error event.
  onUncaughtError(report) {
    self.addEventListener('error', (event) => {
      event.preventDefault();
      report('uncaught exception', event.error ?? event.message);
    });
    self.addEventListener('unhandledrejection', (event) => {
      event.preventDefault();
      report('unhandled rejection', event.reason);
    });
  },
};

const lifecycle = createLifecycle();
const connection = createConnection(ProposedFeatures.all, new BrowserMessageReader(self), new BrowserMessageWriter(self), lifecycle.options);
startServer(connection, browserEnvironment, lifecycle.quietFor);
answerRefusals(connection);
connection.listen();

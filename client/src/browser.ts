// The msglint extension in VS Code for the Web (vscode.dev, github.dev):
// runs in the web worker extension host and starts the language server
// (dist/web/server.js, built from server/lsp/browser.ts) in a Web Worker of
// its own; client.ts adds the commands and the status bar item. There is no
// disk: the server lints with the `msglint.rules` setting and reads no
// config files.

import * as vscode from 'vscode';
import { BrowserMessageReader, BrowserMessageWriter, LanguageClient } from 'vscode-languageclient/browser';
import { activateClient, deactivateClient, type MsglintExtensionApi } from './client.js';
import { BROWSER_DOCUMENT_SELECTOR, BROWSER_SERVER_MODULE, CLIENT_ID, CLIENT_NAME } from './constants.js';

export type { MsglintExtensionApi } from './client.js';

/** The Web Worker of the host, as far as this file uses it (the client compiles without the DOM's types). */
interface ServerWorker {
  terminate(): void;
}
declare const Worker: new (url: string) => ServerWorker;

let worker: ServerWorker | undefined;
let blobUrl: string | undefined;

/**
 * The URL to start the server's worker from. VS Code refuses workers from
 * `vscode-remote:` URLs, the location of extensions that a server installed
 * (code-server, VS Code Server) and the web extension host runs: for those
 * the script is read through the file system and started from a blob URL.
 */
async function serverUrl(uri: vscode.Uri): Promise<string> {
  if (uri.scheme !== 'vscode-remote') return uri.toString(true);
  if (blobUrl) URL.revokeObjectURL(blobUrl);
  const script = await vscode.workspace.fs.readFile(uri);
  blobUrl = URL.createObjectURL(new Blob([script], { type: 'text/javascript' }));
  return blobUrl;
}

export function activate(context: vscode.ExtensionContext): Promise<MsglintExtensionApi> {
  const uri = vscode.Uri.joinPath(context.extensionUri, BROWSER_SERVER_MODULE);
  // A new worker for each start ("Restart server" included); the old one ends with it.
  // The client is given the worker's reader and writer, not the worker: it tells
  // them apart with `instanceof Worker`, which the web extension host's own
  // `Worker` fails.
  const serverOptions = async () => {
    worker?.terminate();
    const started = new Worker(await serverUrl(uri));
    worker = started;
    return { reader: new BrowserMessageReader(started), writer: new BrowserMessageWriter(started) };
  };
  const selector = BROWSER_DOCUMENT_SELECTOR.map((s) => ({ ...s }));
  return activateClient(context, selector, (options) => new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, options));
}

export async function deactivate(): Promise<void> {
  try {
    await deactivateClient();
  } finally {
    worker?.terminate();
    worker = undefined;
  }
}

// The msglint VS Code extension on the desktop (and in code-server): starts
// the bundled language server (dist/server.js, built from
// server/lsp/main.ts) as a Node process for Markdown files; client.ts adds
// the commands and the status bar item. Message files stay Markdown: the
// server decides which Markdown files are message files.

import type * as vscode from 'vscode';
import { LanguageClient, TransportKind, type ServerOptions } from 'vscode-languageclient/node';
import { activateClient, deactivateClient, type MsglintExtensionApi } from './client.js';
import { CLIENT_ID, CLIENT_NAME, DOCUMENT_SELECTOR, SERVER_MODULE } from './constants.js';

export type { MsglintExtensionApi } from './client.js';

export function activate(context: vscode.ExtensionContext): Promise<MsglintExtensionApi> {
  const module = context.asAbsolutePath(SERVER_MODULE);
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
  };
  const selector = DOCUMENT_SELECTOR.map((s) => ({ ...s }));
  return activateClient(context, selector, (options) => new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, options));
}

export function deactivate(): Promise<void> {
  return deactivateClient();
}

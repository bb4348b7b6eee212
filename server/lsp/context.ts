// What every feature module gets: the connection, the open documents, the
// settings, the log, what the client can do and where the server runs.

import type { Connection } from 'vscode-languageserver/node';
import type { MessageDocument } from '../syntax/document.js';
import type { DocumentState, DocumentStore } from './documents.js';
import type { ServerEnvironment } from './environment.js';
import type { Log } from './guard.js';
import type { LintSettings, SettingsService } from './settings.js';
import type { WorkspaceDiagnostics } from './workspace-diagnostics.js';

export interface ClientFeatures {
  snippets: boolean;
  hierarchicalSymbols: boolean;
  documentChanges: boolean;
  markdown: boolean;
  prepareRename: boolean;
  /** window/showDocument: the client shows a place the server names. */
  showDocument: boolean;
  /** textDocument.codeLens.resolveSupport for `command` (LSP 3.18): the client resolves a lens's command when it shows the lens. */
  resolvesLenses: boolean;
}

export interface ServerContext {
  connection: Connection;
  store: DocumentStore;
  settings: SettingsService;
  log: Log;
  client: ClientFeatures;
  env: ServerEnvironment;
  /** The workspace's files, where the environment has a disk and the client named folders. */
  workspace?: WorkspaceDiagnostics;
  /** Whether the client pulls workspace diagnostics (else msglint.lintWorkspace publishes them). */
  workspacePull: boolean;
}

export interface OpenMessageDocument {
  state: DocumentState;
  ls: LintSettings;
  doc: MessageDocument;
}

/** An open message file's state, settings and parse; undefined for anything else. */
export async function messageDocument(ctx: ServerContext, uri: string): Promise<OpenMessageDocument | undefined> {
  const state = typeof uri === 'string' ? ctx.store.get(uri) : undefined;
  if (!state) return undefined;
  const ls = await ctx.settings.forDocument(state);
  if (ctx.store.get(uri) !== state) return undefined;
  const doc = state.parse(ls);
  return doc ? { state, ls, doc } : undefined;
}

/** A URI as editors pass it: a string, `{ uri }` or `{ textDocument: { uri } }`. */
export function uriArgument(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object') {
    const a = arg as { uri?: unknown; textDocument?: { uri?: unknown } };
    if (typeof a.uri === 'string') return a.uri;
    if (typeof a.textDocument?.uri === 'string') return a.textDocument.uri;
  }
  return undefined;
}

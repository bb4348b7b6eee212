// The language server: capabilities, document sync, settings and config
// watching, and the feature modules of this directory.

import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { CODE_ACTION_KINDS, registerCodeActions } from './code-actions.js';
import { registerCodeLenses } from './code-lenses.js';
import { COMMANDS, registerCommands } from './commands.js';
import { registerCompletion, TRIGGER_CHARACTERS } from './completion.js';
import type { ServerContext } from './context.js';
import { DiagnosticsFeature } from './diagnostics.js';
import { DocumentStore } from './documents.js';
import type { ServerEnvironment } from './environment.js';
import { registerFolding } from './folding.js';
import { registerFormatting } from './formatting.js';
import { createLog, describeError, guard } from './guard.js';
import { registerHover } from './hover.js';
import { registerImport } from './import.js';
import { registerInlayHints } from './inlay-hints.js';
import { registerLinks } from './links.js';
import { registerNavigation } from './navigation.js';
import { registerRename } from './rename.js';
import { registerSemanticTokens, SEMANTIC_TOKENS_LEGEND } from './semantic-tokens.js';
import { SettingsService } from './settings.js';
import { WorkspaceDiagnostics } from './workspace-diagnostics.js';
import { registerSymbols } from './symbols.js';
import { registerViewTotal } from './view-budget.js';

/**
 * Serves `connection`; `env`: what the server may use of where it runs
 * (environment.ts); `clientQuietFor`: milliseconds since the client's last
 * message (lifecycle.ts), which the warm-up waits on.
 */
export function startServer(connection: Connection, env: ServerEnvironment, clientQuietFor: () => number = () => Infinity): void {
  const log = createLog(connection);
  const store = new DocumentStore((uri) => env.fsPath(uri));
  let ctx: ServerContext | undefined;
  let diagnostics: DiagnosticsFeature | undefined;
  let dynamicConfig = false;
  let dynamicWatch = false;
  let inlayHintRefresh = false;

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const caps = params.capabilities ?? {};
    const td = caps.textDocument ?? {};
    const pullDiagnostics = !!td.diagnostic;
    dynamicConfig = !!caps.workspace?.didChangeConfiguration?.dynamicRegistration;
    dynamicWatch = !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    inlayHintRefresh = !!caps.workspace?.inlayHint?.refreshSupport;
    const settings = new SettingsService(connection, log, !!caps.workspace?.configuration, env.configFiles);
    const folders = workspaceFolders(params, env);
    env.configFiles?.useWorkspaceFolders(folders);
    const workspace = env.workspaceFiles && folders.length ? new WorkspaceDiagnostics(connection, env.workspaceFiles, folders, store, settings, log) : undefined;
    // VS Code pulls the workspace's diagnostics when the server offers them; the command makes it pull again.
    const workspacePull = pullDiagnostics && !!workspace && !!caps.workspace?.diagnostics?.refreshSupport;
    // Clients that cannot answer workspace/configuration may pass `{ msglint: {...} }` here.
    settings.settingsChanged(params.initializationOptions);
    ctx = {
      connection,
      store,
      settings,
      log,
      client: {
        snippets: !!td.completion?.completionItem?.snippetSupport,
        hierarchicalSymbols: !!td.documentSymbol?.hierarchicalDocumentSymbolSupport,
        documentChanges: !!caps.workspace?.workspaceEdit?.documentChanges,
        markdown: !!td.hover?.contentFormat?.includes('markdown'),
        prepareRename: !!td.rename?.prepareSupport,
        showDocument: !!caps.window?.showDocument?.support,
        resolvesLenses: !!td.codeLens?.resolveSupport?.properties?.includes('command'),
      },
      env,
      ...(workspace ? { workspace } : {}),
      workspacePull,
    };
    if (workspacePull) {
      connection.languages.diagnostics.onWorkspace(
        guard(log, 'workspace/diagnostic', { items: [] }, (p, token, progress, partial) => workspace!.report(p, token, progress, partial)),
      );
    }
    diagnostics = new DiagnosticsFeature(
      connection,
      store,
      settings,
      log,
      { pull: pullDiagnostics, refresh: !!caps.workspace?.diagnostics?.refreshSupport },
      clientQuietFor,
    );
    registerFeatures(ctx);

    return {
      serverInfo: { name: 'msglint-language-server', version: env.version },
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        ...(pullDiagnostics ? { diagnosticProvider: { identifier: 'msglint', interFileDependencies: false, workspaceDiagnostics: workspacePull } } : {}),
        codeActionProvider: { codeActionKinds: CODE_ACTION_KINDS, resolveProvider: false },
        documentFormattingProvider: true,
        executeCommandProvider: { commands: [...COMMANDS] },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: ctx.client.prepareRename ? { prepareProvider: true } : true,
        completionProvider: { triggerCharacters: TRIGGER_CHARACTERS, resolveProvider: false },
        documentSymbolProvider: { label: 'msglint' },
        foldingRangeProvider: true,
        semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: true, range: true },
        documentLinkProvider: { resolveProvider: false },
        inlayHintProvider: { resolveProvider: false },
        codeLensProvider: { resolveProvider: ctx.client.resolvesLenses },
      },
    };
  });

  connection.onInitialized(
    guard(log, 'initialized', undefined, async () => {
      if (dynamicConfig) await connection.client.register(DidChangeConfigurationNotification.type, { section: 'msglint' });
      const configNames = env.configFiles?.names ?? [];
      if (dynamicWatch && configNames.length > 0) {
        await connection.client.register(DidChangeWatchedFilesNotification.type, {
          watchers: configNames.map((name) => ({ globPattern: `**/${name}` })),
        });
      }
    }),
  );

  connection.onDidOpenTextDocument(
    guard(log, 'textDocument/didOpen', undefined, (params) => {
      const { uri, languageId, version, text } = params.textDocument;
      const state = store.open(uri, languageId, version, text);
      ctx?.settings.forget(uri);
      diagnostics?.opened(state);
    }),
  );

  connection.onDidChangeTextDocument(
    guard(log, 'textDocument/didChange', undefined, (params) => {
      const state = store.get(params.textDocument.uri);
      if (!state) return;
      state.update(params.contentChanges, params.textDocument.version);
      diagnostics?.changed(state);
    }),
  );

  connection.onDidSaveTextDocument(
    guard(log, 'textDocument/didSave', undefined, (params) => {
      const state = store.get(params.textDocument.uri);
      if (state) diagnostics?.saved(state);
    }),
  );

  connection.onDidCloseTextDocument(
    guard(log, 'textDocument/didClose', undefined, (params) => {
      store.close(params.textDocument.uri);
      ctx?.settings.forget(params.textDocument.uri);
      diagnostics?.closed(params.textDocument.uri);
      ctx?.workspace?.closed(params.textDocument.uri);
    }),
  );

  connection.onDidChangeConfiguration(
    guard(log, 'workspace/didChangeConfiguration', undefined, (params) => {
      ctx?.settings.settingsChanged(params.settings);
      diagnostics?.refreshAll();
      // msglint.inlayHints may have changed: clients that can be asked to ask again are.
      if (inlayHintRefresh) void connection.languages.inlayHint.refresh().catch(() => undefined);
    }),
  );

  connection.onDidChangeWatchedFiles(
    guard(log, 'workspace/didChangeWatchedFiles', undefined, () => {
      ctx?.settings.configFilesChanged();
      diagnostics?.refreshAll();
    }),
  );

  // Last line of defence: log, keep serving.
  env.onUncaughtError((kind, e) => log.error(`msglint: ${kind}: ${describeError(e)}`));
}

/** The file system paths of the client's workspace folders (or its root), where the environment has a disk. */
function workspaceFolders(params: InitializeParams, env: ServerEnvironment): string[] {
  const uris = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
  const paths: string[] = [];
  for (const uri of uris) {
    try {
      const fsPath = env.fsPath(new URL(uri));
      if (fsPath) paths.push(fsPath);
    } catch {
      // Not a URL: no folder on disk.
    }
  }
  return paths;
}

function registerFeatures(ctx: ServerContext): void {
  registerCodeActions(ctx);
  registerFormatting(ctx);
  registerCommands(ctx);
  registerHover(ctx);
  registerNavigation(ctx);
  registerRename(ctx);
  registerCompletion(ctx);
  registerSymbols(ctx);
  registerFolding(ctx);
  registerSemanticTokens(ctx);
  registerLinks(ctx);
  registerImport(ctx);
  registerInlayHints(ctx);
  registerCodeLenses(ctx);
  registerViewTotal(ctx);
}

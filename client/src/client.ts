// What the desktop extension (extension.ts: the server as a Node process)
// and the web extension (browser.ts: the server in a Web Worker) share:
// the output channel, the status bar item, the commands, and starting,
// restarting and stopping the language client they create.

import * as vscode from 'vscode';
import {
  CodeActionKind,
  CodeActionRequest,
  CodeActionTriggerKind,
  ExecuteCommandRequest,
  RevealOutputChannelOn,
  State,
  type BaseLanguageClient,
  type LanguageClientOptions,
} from 'vscode-languageclient';
import { CLIENT_ID, COMMANDS, SERVER_EXPORT_COMMAND, SERVER_FIX_ALL_COMMAND, SERVER_LINT_WORKSPACE_COMMAND, SERVER_VIEW_TOTAL_REQUEST } from './constants.js';
import { exportFromCommand, exportLLMView } from './export.js';
import { importConversation, type ImportSource } from './import.js';
import { describeError } from './errors.js';
import { legacyRewriteEdits } from './legacy.js';
import { ServerStatus, type ViewTotal } from './status.js';

type LanguageClient = BaseLanguageClient;

let client: LanguageClient | undefined;
let status: ServerStatus | undefined;
let output: vscode.LogOutputChannel | undefined;

/** What `activate` returns (other extensions and tests can use it). */
export interface MsglintExtensionApi {
  readonly client: LanguageClient;
}

/** Makes the language client of one host, with the options both hosts share. */
export type ClientFactory = (options: LanguageClientOptions) => LanguageClient;

export async function activateClient(
  context: vscode.ExtensionContext,
  documentSelector: LanguageClientOptions['documentSelector'],
  createClient: ClientFactory,
): Promise<MsglintExtensionApi> {
  output = vscode.window.createOutputChannel('msglint', { log: true });
  status = new ServerStatus();
  context.subscriptions.push(output, status);

  const log = (message: string): void => output?.error(message);
  const memory = context.workspaceState;
  // The server's export command from a code lens: the extension's flow, which opens the view.
  const lc: LanguageClient = createClient(clientOptions(documentSelector, output, (args) => exportFromCommand(lc, args, log, memory)));
  client = lc;
  status.useTotals((doc) =>
    lc.isRunning() ? lc.sendRequest<ViewTotal | null>(SERVER_VIEW_TOTAL_REQUEST, { textDocument: { uri: lc.code2ProtocolConverter.asUri(doc.uri) } }) : Promise.resolve(null),
  );
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.fixAll, () => fixAll(lc)),
    vscode.commands.registerCommand(COMMANDS.rewriteLegacyToolCalls, () => rewriteLegacyToolCalls(lc)),
    vscode.commands.registerCommand(COMMANDS.restartServer, () => restart(lc)),
    vscode.commands.registerCommand(COMMANDS.showOutput, () => lc.outputChannel.show(true)),
    vscode.commands.registerCommand(COMMANDS.lintWorkspace, () => lintWorkspace(lc)),
    vscode.commands.registerCommand(COMMANDS.exportLLMView, () => {
      const doc = activeDocument(lc);
      return doc && exportLLMView(lc, doc, log, { memory });
    }),
    vscode.commands.registerCommand(COMMANDS.importConversation, (source?: ImportSource) =>
      isRunning(lc) ? importConversation(lc, (message) => output?.warn(message), source) : undefined,
    ),
    lc.onDidChangeState((e) => {
      if (e.newState === State.Running) status?.set('running', '', lc.initializeResult?.serverInfo?.version);
      else if (e.newState === State.Starting) status?.set('starting');
      else if (status?.current !== 'failed') status?.set('stopped');
    }),
  );

  await start(lc);
  return { client: lc };
}

export async function deactivateClient(): Promise<void> {
  const lc = client;
  client = undefined;
  if (lc?.needsStop()) await lc.stop();
}

function clientOptions(
  documentSelector: LanguageClientOptions['documentSelector'],
  channel: vscode.LogOutputChannel,
  exportCommand: (args: unknown[]) => Promise<void>,
): LanguageClientOptions {
  return {
    documentSelector,
    outputChannel: channel,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    // The server asks for the `msglint` section itself (workspace/configuration);
    // this sends workspace/didChangeConfiguration when it changes.
    synchronize: { configurationSection: CLIENT_ID },
    middleware: {
      // Server commands (registered by the language client) invoked from a
      // keybinding get no arguments: give them the active document.
      executeCommand: (command, args, next) => {
        if (command === SERVER_EXPORT_COMMAND && args.length > 0) return exportCommand(args);
        const doc = vscode.window.activeTextEditor?.document;
        return next(command, args.length === 0 && doc ? [doc.uri.toString()] : args);
      },
    },
    initializationFailedHandler: (error) => {
      status?.set('failed', `The server failed to initialize: ${describeError(error)}`);
      return false;
    },
  };
}

async function start(lc: LanguageClient): Promise<void> {
  status?.set('starting');
  try {
    await lc.start();
  } catch (error) {
    const message = `The msglint language server could not start: ${describeError(error)}`;
    output?.error(message);
    status?.set('failed', message);
  }
}

async function restart(lc: LanguageClient): Promise<void> {
  status?.set('starting');
  try {
    if (lc.needsStop()) await lc.stop();
  } catch (error) {
    output?.warn(`Stopping the server: ${describeError(error)}`);
  }
  await start(lc);
}

/** The active Markdown editor, or a message saying why there is none. */
function activeDocument(lc: LanguageClient): vscode.TextDocument | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  if (!doc) {
    void vscode.window.showInformationMessage('msglint: open a message file first.');
    return undefined;
  }
  return isRunning(lc) ? doc : undefined;
}

/** Whether the server runs; says so when it does not. */
function isRunning(lc: LanguageClient): boolean {
  if (!lc.isRunning()) void vscode.window.showWarningMessage('msglint: the language server is not running (see "msglint: Show output").');
  return lc.isRunning();
}

async function fixAll(lc: LanguageClient): Promise<void> {
  const doc = activeDocument(lc);
  if (!doc) return;
  const uri = lc.code2ProtocolConverter.asUri(doc.uri);
  try {
    // The server applies the edits with workspace/applyEdit.
    const result = (await lc.sendRequest(ExecuteCommandRequest.type, { command: SERVER_FIX_ALL_COMMAND, arguments: [uri] })) as
      | { applied?: boolean; edits?: number }
      | null;
    if (!result || result.edits === undefined) {
      void vscode.window.showInformationMessage(`msglint: ${doc.uri.path.split('/').pop()} is not a message file (or msglint is disabled for it).`);
    } else if (result.edits === 0) {
      void vscode.window.showInformationMessage('msglint: nothing to fix.');
    } else if (!result.applied) {
      void vscode.window.showWarningMessage('msglint: the fixes could not be applied (the file changed meanwhile?).');
    }
  } catch (error) {
    output?.error(`Fix all: ${describeError(error)}`);
    void vscode.window.showErrorMessage(`msglint: fix all failed: ${describeError(error)}`);
  }
}

/** Has the server lint the folder's message files again and shows the Problems panel, where they are listed. */
async function lintWorkspace(lc: LanguageClient): Promise<void> {
  if (!isRunning(lc)) return;
  try {
    await lc.sendRequest(ExecuteCommandRequest.type, { command: SERVER_LINT_WORKSPACE_COMMAND, arguments: [] });
    await vscode.commands.executeCommand('workbench.actions.view.problems');
  } catch (error) {
    output?.error(`Lint workspace: ${describeError(error)}`);
    void vscode.window.showErrorMessage(`msglint: ${describeError(error)}`);
  }
}

async function rewriteLegacyToolCalls(lc: LanguageClient): Promise<void> {
  const doc = activeDocument(lc);
  if (!doc) return;
  const version = doc.version;
  const end = doc.lineAt(doc.lineCount - 1).range.end;
  const uri = lc.code2ProtocolConverter.asUri(doc.uri);
  try {
    const actions = await lc.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: end.line, character: end.character } },
      context: { diagnostics: [], only: [CodeActionKind.QuickFix], triggerKind: CodeActionTriggerKind.Invoked },
    });
    const { edits, calls } = legacyRewriteEdits(actions, uri);
    if (calls === 0) {
      void vscode.window.showInformationMessage('msglint: no legacy JSON tool calls here.');
      return;
    }
    if (doc.version !== version) {
      void vscode.window.showWarningMessage('msglint: the file changed while the rewrite was computed; run the command again.');
      return;
    }
    const edit = new vscode.WorkspaceEdit();
    edit.set(doc.uri, await lc.protocol2CodeConverter.asTextEdits(edits));
    const applied = await vscode.workspace.applyEdit(edit);
    if (applied) void vscode.window.showInformationMessage(`msglint: rewrote ${calls} legacy tool call${calls === 1 ? '' : 's'} as XML.`);
    else void vscode.window.showWarningMessage('msglint: the rewrite could not be applied.');
  } catch (error) {
    output?.error(`Rewrite legacy tool calls: ${describeError(error)}`);
    void vscode.window.showErrorMessage(`msglint: rewriting legacy tool calls failed: ${describeError(error)}`);
  }
}

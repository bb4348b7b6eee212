// "msglint: Export LLM view…": asks for a target, has the server export the
// active file (its msglint.exportLLMView command, the view of the text as it
// is in the editor, saved or not) and opens the result in an untitled editor
// beside the file. A file the server refuses (a view that would be invalid)
// can be exported anyway on request, as `msglint export --force` does.
//
// The code lens "Export view up to here" on an agent reply runs the same
// with `until`, as `msglint export --until ID` does: in the target picked
// last (kept in the workspace's state), asked only the first time.

import * as vscode from 'vscode';
import { ExecuteCommandRequest, type BaseLanguageClient } from 'vscode-languageclient';
import { EXPORT_FORMAT_KEY, EXPORT_TARGETS, SERVER_EXPORT_COMMAND } from './constants.js';
import { describeError } from './errors.js';

const EXPORT_ANYWAY = 'Export anyway';

export interface ExportOptions {
  /** The workspace's state: the target picked last. */
  memory: vscode.Memento;
  /** Export the view up to the cell with this id (and use the target picked last). */
  until?: string;
}

const isTarget = (format: unknown): format is string => EXPORT_TARGETS.some((t) => t.format === format);

/** The target to export in: the remembered one for an export up to a cell, else the one picked (the remembered one first). */
async function target(options: ExportOptions): Promise<string | undefined> {
  const remembered = options.memory.get<string>(EXPORT_FORMAT_KEY);
  if (options.until !== undefined && isTarget(remembered)) return remembered;
  const targets = [...EXPORT_TARGETS].sort((a, b) => Number(b.format === remembered) - Number(a.format === remembered));
  const picked = await vscode.window.showQuickPick(
    targets.map((t) => ({ label: t.format, description: t.description })),
    {
      title: options.until !== undefined ? `msglint: Export the LLM view up to ${options.until}` : 'msglint: Export LLM view',
      placeHolder: 'The shape to export the conversation in',
    },
  );
  if (!picked) return undefined;
  await options.memory.update(EXPORT_FORMAT_KEY, picked.label);
  return picked.label;
}

export async function exportLLMView(lc: BaseLanguageClient, doc: vscode.TextDocument, log: (message: string) => void, options: ExportOptions): Promise<void> {
  const format = await target(options);
  if (!format) return;
  const uri = lc.code2ProtocolConverter.asUri(doc.uri);
  const until = options.until !== undefined ? { until: options.until } : {};
  const request = (force: boolean) =>
    lc.sendRequest(ExecuteCommandRequest.type, { command: SERVER_EXPORT_COMMAND, arguments: [uri, format, force ? { ...until, force: true } : until] });
  let result: unknown;
  try {
    result = await request(false);
  } catch (error) {
    const message = describeError(error);
    if (!/not exported/.test(message)) {
      log(`Export LLM view: ${message}`);
      void vscode.window.showErrorMessage(`msglint: ${message}`);
      return;
    }
    // The view would be invalid: say why, and let the user decide.
    const choice = await vscode.window.showWarningMessage(`msglint: ${message}`, EXPORT_ANYWAY);
    if (choice !== EXPORT_ANYWAY) return;
    try {
      result = await request(true);
    } catch (again) {
      void vscode.window.showErrorMessage(`msglint: ${describeError(again)}`);
      return;
    }
  }
  const text = typeof result === 'string' ? result : `${JSON.stringify(result, null, 2)}\n`;
  const opened = await vscode.workspace.openTextDocument({ language: typeof result === 'string' ? 'plaintext' : 'json', content: text });
  await vscode.window.showTextDocument(opened, { viewColumn: vscode.ViewColumn.Beside, preview: false });
}

/**
 * The server's msglint.exportLLMView run as a command of VS Code (a code
 * lens's `[uri, format, { until }]`): the extension's own flow for the
 * document of that URI, which opens the result instead of dropping it.
 */
export async function exportFromCommand(lc: BaseLanguageClient, args: unknown[], log: (message: string) => void, memory: vscode.Memento): Promise<void> {
  const uri = args[0];
  const until = (args[2] as { until?: unknown } | undefined)?.until;
  const doc = vscode.workspace.textDocuments.find((d) => lc.code2ProtocolConverter.asUri(d.uri) === uri) ?? vscode.window.activeTextEditor?.document;
  if (!doc) {
    void vscode.window.showInformationMessage('msglint: open a message file first.');
    return;
  }
  await exportLLMView(lc, doc, log, { memory, ...(typeof until === 'string' ? { until } : {}) });
}

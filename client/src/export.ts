// "msglint: Export LLM view…": asks for a target, has the server export the
// active file (its msglint.exportLLMView command, the view of the text as it
// is in the editor, saved or not) and opens the result in an untitled editor
// beside the file. A file the server refuses (a view that would be invalid)
// can be exported anyway on request, as `msglint export --force` does.

import * as vscode from 'vscode';
import { ExecuteCommandRequest, type BaseLanguageClient } from 'vscode-languageclient';
import { EXPORT_TARGETS, SERVER_EXPORT_COMMAND } from './constants.js';
import { describeError } from './errors.js';

const EXPORT_ANYWAY = 'Export anyway';

export async function exportLLMView(lc: BaseLanguageClient, doc: vscode.TextDocument, log: (message: string) => void): Promise<void> {
  const picked = await vscode.window.showQuickPick(
    EXPORT_TARGETS.map((t) => ({ label: t.format, description: t.description })),
    { title: 'msglint: Export LLM view', placeHolder: 'The shape to export the conversation in' },
  );
  if (!picked) return;
  const uri = lc.code2ProtocolConverter.asUri(doc.uri);
  const request = (force: boolean) =>
    lc.sendRequest(ExecuteCommandRequest.type, { command: SERVER_EXPORT_COMMAND, arguments: [uri, picked.label, force ? { force: true } : {}] });
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

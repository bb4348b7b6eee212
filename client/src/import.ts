// "msglint: Import conversation…": a conversation's JSON (a file picked in
// the open dialog, or the clipboard) becomes a message file, as `msglint
// import` writes it. The server converts (its msglint/importConversation
// request, so the web extension's worker does it too); the result opens as
// a new, unsaved `.msg.md` editor, named after the JSON file and in its
// folder (for the clipboard: `conversation.msg.md` in the first workspace
// folder) under a name no file has yet, so that Save writes it there and
// nothing is overwritten unasked. What the file could not hold (`dropped`)
// is shown, and written to the output channel.

import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { IMPORT_FORMATS, SERVER_IMPORT_REQUEST } from './constants.js';
import { describeError } from './errors.js';

/** What the server's request answers. */
export interface ImportedConversation {
  text: string;
  format: string;
  dropped: string[];
}

/** Where the JSON comes from; the command's optional argument (tests, keybindings) skips the pickers. */
export interface ImportSource {
  /** The conversation itself. */
  text?: string;
  /** A JSON file to read. */
  uri?: vscode.Uri | string;
  /** `clipboard`: the clipboard's text. */
  from?: 'clipboard';
  /** The format, when it should not be recognised. */
  format?: string;
}

const FROM_FILE = 'From a JSON file…';
const FROM_CLIPBOARD = 'From the clipboard';
const CHOOSE_FORMAT = 'Choose the format…';

/** The JSON to import and the file it came from; undefined when the user gave up. */
async function source(arg: ImportSource | undefined): Promise<{ json: string; file?: vscode.Uri } | undefined> {
  if (typeof arg?.text === 'string') return { json: arg.text };
  let file: vscode.Uri | undefined = typeof arg?.uri === 'string' ? vscode.Uri.parse(arg.uri) : arg?.uri;
  if (!file && arg?.from !== 'clipboard') {
    const picked = await vscode.window.showQuickPick(
      [
        { label: FROM_FILE, description: 'OpenAI, Anthropic, AI SDK, context-json, dexto or Forge JSON' },
        { label: FROM_CLIPBOARD, description: 'the same, copied' },
      ],
      { title: 'msglint: Import conversation', placeHolder: 'Where the conversation is' },
    );
    if (!picked) return undefined;
    if (picked.label === FROM_FILE) {
      const chosen = await vscode.window.showOpenDialog({
        title: 'msglint: Import conversation',
        canSelectMany: false,
        openLabel: 'Import',
        filters: { 'Conversation JSON': ['json'], 'All files': ['*'] },
      });
      if (!chosen?.[0]) return undefined;
      file = chosen[0];
    }
  }
  // The workspace's file system: a disk, or a virtual workspace on the web.
  if (file) return { json: new TextDecoder().decode(await vscode.workspace.fs.readFile(file)), file };
  return { json: await vscode.env.clipboard.readText() };
}

/** A `.msg.md` name in the JSON file's folder (or the first workspace folder) that no file has yet. */
async function untitledTarget(file: vscode.Uri | undefined): Promise<vscode.Uri> {
  const folder = file ? vscode.Uri.joinPath(file, '..') : vscode.workspace.workspaceFolders?.[0]?.uri;
  const base = file ? (file.path.split('/').pop() ?? 'conversation').replace(/\.(json|jsonl)$/i, '') : 'conversation';
  if (!folder) return vscode.Uri.from({ scheme: 'untitled', path: `${base}.msg.md` });
  for (let n = 1; ; n++) {
    const candidate = vscode.Uri.joinPath(folder, `${base}${n === 1 ? '' : `-${n}`}.msg.md`);
    const taken = await vscode.workspace.fs.stat(candidate).then(
      () => true,
      () => false,
    );
    const open = vscode.workspace.textDocuments.some((d) => d.uri.path === candidate.path);
    if (!taken && !open) return candidate.with({ scheme: 'untitled' });
  }
}

export async function importConversation(lc: BaseLanguageClient, log: (message: string) => void, arg?: ImportSource): Promise<vscode.TextDocument | undefined> {
  let from: { json: string; file?: vscode.Uri } | undefined;
  try {
    from = await source(arg);
  } catch (error) {
    void vscode.window.showErrorMessage(`msglint: the conversation could not be read: ${describeError(error)}`);
    return undefined;
  }
  if (!from) return undefined;
  let format = arg?.format;
  let result: ImportedConversation | null = null;
  for (;;) {
    try {
      result = await lc.sendRequest<ImportedConversation | null>(SERVER_IMPORT_REQUEST, { text: from.json, ...(format ? { from: format } : {}) });
      break;
    } catch (error) {
      const message = describeError(error).replace(`${SERVER_IMPORT_REQUEST}: `, '');
      log(`Import conversation: ${message}`);
      // An unrecognised shape may still be one of the formats: let the user say which.
      const choice = await vscode.window.showErrorMessage(`msglint: not imported: ${message}`, ...(format ? [] : [CHOOSE_FORMAT]));
      if (choice !== CHOOSE_FORMAT) return undefined;
      format = await vscode.window.showQuickPick([...IMPORT_FORMATS], { title: 'msglint: Import conversation', placeHolder: 'The format of the conversation' });
      if (!format) return undefined;
    }
  }
  if (!result) {
    void vscode.window.showErrorMessage('msglint: the import failed (see "msglint: Show output").');
    return undefined;
  }
  const target = await untitledTarget(from.file);
  const doc = await vscode.workspace.openTextDocument(target);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, new vscode.Position(0, 0), result.text);
  await vscode.workspace.applyEdit(edit);
  await vscode.window.showTextDocument(doc, { preview: false });
  if (result.dropped.length) {
    for (const line of result.dropped) log(`Import conversation (${result.format}): ${line}`);
    void vscode.window.showWarningMessage(`msglint: imported from ${result.format}, but the message file cannot hold everything: ${result.dropped.join('; ')}.`);
  } else {
    void vscode.window.showInformationMessage(`msglint: imported from ${result.format}.`);
  }
  return doc;
}

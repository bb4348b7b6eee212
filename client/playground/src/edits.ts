// Applying the server's WorkspaceEdits (quick fixes, fix all, the disable
// comments) to the editor.

import type { EditorView } from '@codemirror/view';
import { LSPPlugin } from '@codemirror/lsp-client';
import type * as lsp from 'vscode-languageserver-protocol';

/** The TextEdits of `edit` for `uri`, from `changes` or `documentChanges`. */
export function editsFor(edit: lsp.WorkspaceEdit, uri: string): lsp.TextEdit[] {
  const edits: lsp.TextEdit[] = [...(edit.changes?.[uri] ?? [])];
  for (const change of edit.documentChanges ?? []) {
    if ('edits' in change && change.textDocument.uri === uri) {
      for (const e of change.edits) if ('newText' in e) edits.push(e);
    }
  }
  return edits;
}

/**
 * Applies the edits of `edit` for the view's document. Positions are in the
 * version the server last saw, mapped through what was typed since.
 */
export function applyWorkspaceEdit(view: EditorView, edit: lsp.WorkspaceEdit): boolean {
  const plugin = LSPPlugin.get(view);
  if (!plugin) return false;
  const edits = editsFor(edit, plugin.uri);
  if (edits.length === 0) return false;
  const at = (p: lsp.Position) => plugin.unsyncedChanges.mapPos(plugin.fromPosition(p, plugin.syncedDoc));
  view.dispatch({
    changes: edits.map((e) => ({ from: at(e.range.start), to: at(e.range.end), insert: e.newText })),
    userEvent: 'input.fix',
    scrollIntoView: true,
  });
  return true;
}

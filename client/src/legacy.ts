// "Rewrite legacy tool calls": the server's quick fixes for
// `legacy-json-tool-call`, gathered over the whole document and applied as
// one edit. Pure functions over protocol types (no `vscode` import), so the
// tests run them against the bundled server.

import type { CodeAction, Command, TextDocumentEdit, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { LEGACY_TOOL_CALL_RULE } from './constants.js';

function isCodeAction(a: Command | CodeAction): a is CodeAction {
  return typeof (a as Command).command !== 'string';
}

/** The text edits a workspace edit makes to one document. */
export function editsFor(edit: WorkspaceEdit | undefined, uri: string): TextEdit[] {
  if (!edit) return [];
  const out: TextEdit[] = [];
  for (const change of edit.documentChanges ?? []) {
    const docEdit = change as TextDocumentEdit;
    if (docEdit.textDocument?.uri === uri && Array.isArray(docEdit.edits)) {
      for (const e of docEdit.edits) if ('newText' in e) out.push({ range: e.range, newText: e.newText });
    }
  }
  for (const e of edit.changes?.[uri] ?? []) out.push({ range: e.range, newText: e.newText });
  return out;
}

function before(a: TextEdit['range']['start'], b: TextEdit['range']['start']): number {
  return a.line - b.line || a.character - b.character;
}

/**
 * The edits of the preferred quick fixes for legacy JSON tool calls, in
 * document order, without overlaps (a later overlapping edit is left for
 * another run), and how many tool calls they rewrite.
 */
export function legacyRewriteEdits(actions: readonly (Command | CodeAction)[] | null | undefined, uri: string): { edits: TextEdit[]; calls: number } {
  const candidates: { edits: TextEdit[] }[] = [];
  for (const a of actions ?? []) {
    if (!isCodeAction(a) || a.isPreferred !== true || !a.edit) continue;
    if (!a.diagnostics?.some((d) => d.code === LEGACY_TOOL_CALL_RULE)) continue;
    const edits = editsFor(a.edit, uri);
    if (edits.length) candidates.push({ edits: [...edits].sort((x, y) => before(x.range.start, y.range.start)) });
  }
  candidates.sort((x, y) => before(x.edits[0]!.range.start, y.edits[0]!.range.start));
  const edits: TextEdit[] = [];
  let calls = 0;
  for (const c of candidates) {
    const last = edits[edits.length - 1];
    if (last && before(c.edits[0]!.range.start, last.range.end) < 0) continue;
    edits.push(...c.edits);
    calls++;
  }
  return { edits, calls };
}

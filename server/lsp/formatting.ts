// Formatting applies every safe fix (so format-on-save in any editor rewrites
// legacy JSON tool calls and mends markers), and the msglint.fixAll command
// does the same through workspace/applyEdit (commands.ts dispatches it).

import { ResponseError, ErrorCodes, type TextEdit as LspTextEdit, type WorkspaceEdit } from 'vscode-languageserver/node';
import { messageDocument, uriArgument, type OpenMessageDocument, type ServerContext } from './context.js';
import { toTextEdit } from './convert.js';
import { fixAll } from './fix-all.js';
import { guard } from './guard.js';

export const FIX_ALL_COMMAND = 'msglint.fixAll';

/** The edits that apply every safe fix to the current version (computed once per version). */
export function fixAllEdits(open: OpenMessageDocument): LspTextEdit[] {
  const { state, ls } = open;
  const edits = state.derive(ls, 'fix-all', (doc) => {
    const result = fixAll(doc, state.lint(ls), { fileName: state.fileName, config: ls.config });
    return result.edits.map((e) => toTextEdit(state.text, e));
  });
  return edits ?? [];
}

/** A workspace edit for one document, versioned when the client supports it. */
export function documentEdit(ctx: ServerContext, open: OpenMessageDocument, edits: LspTextEdit[]): WorkspaceEdit {
  const { state } = open;
  if (ctx.client.documentChanges) {
    return { documentChanges: [{ textDocument: { uri: state.uri, version: state.version }, edits }] };
  }
  return { changes: { [state.uri]: edits } };
}

export function registerFormatting(ctx: ServerContext): void {
  const { connection, log } = ctx;
  connection.onDocumentFormatting(
    guard(log, 'textDocument/formatting', null, async (params) => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      return open ? fixAllEdits(open) : null;
    }),
  );
}

/** Runs msglint.fixAll: applies every safe fix to a document through workspace/applyEdit. */
export async function fixAllCommand(ctx: ServerContext, args: unknown[] | undefined): Promise<{ applied: boolean; edits?: number }> {
  // Arguments: a URI, or { uri } / { textDocument: { uri } } as editors send them.
  const uri = uriArgument(args?.[0]);
  if (typeof uri !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, `${FIX_ALL_COMMAND} needs the document's URI as its argument.`);
  const open = await messageDocument(ctx, uri);
  if (!open) return { applied: false };
  const edits = fixAllEdits(open);
  if (edits.length === 0) return { applied: true, edits: 0 };
  const result = await ctx.connection.workspace.applyEdit({ label: 'msglint: fix all', edit: documentEdit(ctx, open, edits) });
  return { applied: result.applied, edits: edits.length };
}

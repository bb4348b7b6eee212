// Code lenses (textDocument/codeLens) on the marker lines:
// - on an agent reply, "Export view up to here": the server's
//   msglint.exportLLMView command with `{ until: ID }`, the view a program
//   sent to get this reply. A client that runs the command through the server
//   gets the view as JSON (in openai's shape); the VS Code extension runs its
//   own "Export LLM view" flow instead and opens the result.
// - on a tool call, "Go to result" (msglint.showLocation, which asks the
//   client to show the result's marker line with window/showDocument) or
//   "No result yet". A client that cannot show documents gets the result's
//   line in the title.
// A lens without an action has the command '' (a title only).

import { ResponseError, ErrorCodes, type CodeLens, type Command, type Range } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Cell, MessageDocument } from '../syntax/document.js';
import { toolGraph } from '../tool-calls/index.js';
import { messageDocument, type ServerContext } from './context.js';
import { toRange } from './convert.js';
import { EXPORT_LLM_VIEW_COMMAND } from './export.js';
import { guard } from './guard.js';

export const SHOW_LOCATION_COMMAND = 'msglint.showLocation';

/** The format a lens's export asks the server for (a client with its own flow chooses another). */
export const LENS_EXPORT_FORMAT = 'openai';

function markerRange(doc: MessageDocument, text: TextDocument, cell: Cell): Range {
  const at = doc.offsetOf(cell);
  return toRange(text, at + cell.marker.span.start, at + cell.marker.span.end);
}

/** The lenses of a version (see the top of this file); `showDocument`: whether the client can show a place. */
export function codeLenses(doc: MessageDocument, text: TextDocument, uri: string, showDocument: boolean): CodeLens[] {
  const lenses: CodeLens[] = [];
  const graph = toolGraph(doc);
  const calls = new Map(graph.calls.map((c) => [c.cell, c]));
  for (let i = 0; i < doc.cellCount; i++) {
    const cell = doc.cell(i)!;
    const kind = doc.kindOf(cell);
    let command: Command | undefined;
    if (kind === 'agent-reply' && cell.id !== undefined && doc.cellsById.get(cell.id)?.[0] === cell) {
      command = { title: 'Export view up to here', command: EXPORT_LLM_VIEW_COMMAND, arguments: [uri, LENS_EXPORT_FORMAT, { until: cell.id }] };
    } else if (kind === 'tool-call') {
      const call = calls.get(cell);
      if (!call) continue;
      const result = graph.resultsByCall.get(call.id)?.find((r) => doc.indexOf(r.cell) > i);
      if (!result) command = { title: 'No result yet', command: '' };
      else {
        const range = markerRange(doc, text, result.cell);
        command = showDocument
          ? { title: 'Go to result', command: SHOW_LOCATION_COMMAND, arguments: [uri, range] }
          : { title: `Result at line ${range.start.line + 1}`, command: '' };
      }
    }
    if (command) lenses.push({ range: markerRange(doc, text, cell), command });
  }
  return lenses;
}

/** msglint.showLocation `[uri, range]`: the client shows the place (window/showDocument). */
export async function showLocationCommand(ctx: ServerContext, args: unknown[] | undefined): Promise<unknown> {
  const [uri, range] = args ?? [];
  const position = (p: unknown): boolean => !!p && typeof p === 'object' && Number.isInteger((p as { line?: unknown }).line) && Number.isInteger((p as { character?: unknown }).character);
  const r = range as Range | undefined;
  if (typeof uri !== 'string' || !r || !position(r.start) || !position(r.end)) {
    throw new ResponseError(ErrorCodes.InvalidParams, `${SHOW_LOCATION_COMMAND} takes [uri, range]`);
  }
  return ctx.connection.window.showDocument({ uri, selection: r, takeFocus: true });
}

export function registerCodeLenses(ctx: ServerContext): void {
  ctx.connection.onCodeLens(
    guard(ctx.log, 'textDocument/codeLens', null, async (params): Promise<CodeLens[] | null> => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      if (!open) return null;
      const { state, ls } = open;
      return state.derive(ls, 'code-lenses', (doc) => codeLenses(doc, state.text, state.uri, ctx.client.showDocument)) ?? null;
    }),
  );
}

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
//
// A client that resolves a lens's command when it shows the lens (LSP
// 3.18's codeLens.resolveSupport, as VS Code's client declares) gets the list
// without commands: where the lenses are, with a number for the open
// document as `data` (lensKey), and codeLens/resolve gives each its command.
// A 5,000-turn file has 11,000 lenses and the protocol asks for all of a
// document's at once (no range), after every edit: with their commands that
// is 2 MB to build, send and read each time, 1 MB without. A resolve reads the lens from the current
// version at its line: one whose line no longer holds a reply or a call (an
// edit came between the list and the resolve) is answered ContentModified,
// and the client asks again. Other clients get the commands in the list:
// Neovim resolves every lens of the list at once, which for 11,000 lenses
// takes seconds where the list with commands takes a fraction of one.

import { ResponseError, ErrorCodes, LSPErrorCodes, type CodeLens, type Command, type Range } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Cell, MessageDocument } from '../syntax/document.js';
import type { DocumentState } from './documents.js';
import { toolGraph, type CallRef, type ToolGraph } from '../tool-calls/index.js';
import { messageDocument, type ServerContext } from './context.js';
import { toOffset } from './convert.js';
import { EXPORT_LLM_VIEW_COMMAND } from './export.js';
import { describeError, guard } from './guard.js';
import { firstCellFrom } from './inlay-hints.js';

export const SHOW_LOCATION_COMMAND = 'msglint.showLocation';

/** The format a lens's export asks the server for (a client with its own flow chooses another). */
export const LENS_EXPORT_FORMAT = 'openai';

/** A cell's marker line as a range (a marker holds no line break). */
function markerRange(doc: MessageDocument, text: TextDocument, cell: Cell): Range {
  const start = text.positionAt(doc.offsetOf(cell) + cell.marker.span.start);
  return { start, end: { line: start.line, character: start.character + cell.marker.span.end - cell.marker.span.start } };
}

/** The number that stands for an open document in its lenses' `data`: shorter than its URI, and a document opened again gets another. */
const lensKeys = new WeakMap<DocumentState, number>();
let lastLensKey = 0;
function lensKey(state: DocumentState): number {
  let key = lensKeys.get(state);
  if (key === undefined) lensKeys.set(state, (key = ++lastLensKey));
  return key;
}

/** The tool graph's calls by their cells, once per version. */
const callCells = new WeakMap<ToolGraph, ReadonlyMap<Cell, CallRef>>();
function callsOf(graph: ToolGraph): ReadonlyMap<Cell, CallRef> {
  let cells = callCells.get(graph);
  if (!cells) callCells.set(graph, (cells = new Map(graph.calls.map((c) => [c.cell, c]))));
  return cells;
}

/** Whether a cell gets a lens: an agent reply (the first cell with its id), or a tool call the graph knows. */
function hasLens(doc: MessageDocument, cell: Cell, calls: ReadonlyMap<Cell, CallRef>): boolean {
  const kind = doc.kindOf(cell);
  if (kind === 'agent-reply') return cell.id !== undefined && doc.cellsById.get(cell.id)?.[0] === cell;
  return kind === 'tool-call' && calls.has(cell);
}

/**
 * The lenses of a version (see the top of this file): with their commands
 * when `commands` says what the client can do, else with `key` as their
 * data (resolveLens).
 */
export function codeLenses(doc: MessageDocument, text: TextDocument, uri: string, commands: { showDocument: boolean } | { key: number }): CodeLens[] {
  const lenses: CodeLens[] = [];
  const graph = toolGraph(doc);
  const calls = callsOf(graph);
  for (let i = 0; i < doc.cellCount; i++) {
    const cell = doc.cell(i)!;
    if (!hasLens(doc, cell, calls)) continue;
    const range = markerRange(doc, text, cell);
    lenses.push('key' in commands ? { range, data: commands.key } : { range, command: lensCommand(doc, text, uri, i, graph, commands.showDocument) });
  }
  return lenses;
}

/** The command of the lens on cell `index`, which has one (hasLens). */
function lensCommand(doc: MessageDocument, text: TextDocument, uri: string, index: number, graph: ToolGraph, showDocument: boolean): Command {
  const cell = doc.cell(index)!;
  if (doc.kindOf(cell) === 'agent-reply') {
    return { title: 'Export view up to here', command: EXPORT_LLM_VIEW_COMMAND, arguments: [uri, LENS_EXPORT_FORMAT, { until: cell.id }] };
  }
  const call = callsOf(graph).get(cell)!;
  const result = graph.resultsByCall.get(call.id)?.find((r) => doc.indexOf(r.cell) > index);
  if (!result) return { title: 'No result yet', command: '' };
  const range = markerRange(doc, text, result.cell);
  return showDocument
    ? { title: 'Go to result', command: SHOW_LOCATION_COMMAND, arguments: [uri, range] }
    : { title: `Result at line ${range.start.line + 1}`, command: '' };
}

/** codeLens/resolve: the lens's command, read from the current version at the lens's line. */
async function resolveLens(ctx: ServerContext, lens: CodeLens): Promise<CodeLens> {
  const key: unknown = lens?.data;
  if (typeof key !== 'number' || !lens.range?.start) throw new ResponseError(ErrorCodes.InvalidParams, 'codeLens/resolve takes a lens of textDocument/codeLens');
  const gone = (): ResponseError<unknown> => new ResponseError(LSPErrorCodes.ContentModified, 'codeLens/resolve: the document changed or closed; ask for its lenses again');
  const uri = ctx.store.all().find((s) => lensKeys.get(s) === key)?.uri;
  const open = uri !== undefined ? await messageDocument(ctx, uri) : undefined;
  if (!open || lensKeys.get(open.state) !== key) throw gone();
  const { state, doc } = open;
  // The cell whose marker starts at the lens's place, if it still has a lens.
  const at = toOffset(state.text, lens.range.start);
  const index = firstCellFrom(doc, at + 1) - 1;
  const cell = doc.cell(index);
  const graph = toolGraph(doc);
  if (!cell || doc.offsetOf(cell) + cell.marker.span.start !== at || !hasLens(doc, cell, callsOf(graph))) throw gone();
  return { range: lens.range, command: lensCommand(doc, state.text, state.uri, index, graph, ctx.client.showDocument), data: key };
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
      const commands = ctx.client.resolvesLenses ? { key: lensKey(state) } : { showDocument: ctx.client.showDocument };
      return state.derive(ls, 'code-lenses', (doc) => codeLenses(doc, state.text, state.uri, commands)) ?? null;
    }),
  );
  // Without a lens to fall back on, an unexpected failure answers an error (guard logs it).
  ctx.connection.onCodeLensResolve(async (lens) => {
    try {
      return await resolveLens(ctx, lens);
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      ctx.log.error(`msglint: codeLens/resolve failed: ${describeError(e)}`);
      throw new ResponseError(ErrorCodes.InternalError, 'codeLens/resolve failed');
    }
  });
}

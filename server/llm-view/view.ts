// The LLM view of a message file (spec section 9): which cells a program
// sends to a model, in which role, and whether each one contributes its body
// or its summary. The export feature builds on this; the `history-split-pair`
// and `context-window` rules use it today.
//
// Decisions where the spec is silent:
// - Only cells are in the view: the frontmatter, the text before the first
//   cell and (in an ordinary .md file) everything outside the message section
//   are not.
// - A `history` value that is not valid (`history-value` reports it) counts as
//   the default, `include`.
// - A cell's body is its text without the marker line, without metadata lines
//   (its own, other cells' misplaced ones, temporary agent declarations) and
//   without lines that are only an HTML comment (msglint directives and notes
//   are not shown by Markdown viewers); blank lines at both ends are dropped.
//   An ordinary footnote (`[^n]: text`, no `[TYPE]`) is content. An escaped
//   line (spec section 6: `\# %% x`, `\[^3]: x`, outside closed fences,
//   comments and CDATA) loses its one escaping backslash; a reply's escaped
//   thinking paragraph (`\[not thinking]`) is the export's to undo, after it
//   has split the thinking off (server/export/view.ts).
// - A code cell contributes the content of its first code block; without a
//   code block (reported by `code-cell-block`) it contributes its body.
// - A textual code output contributes its lines with the `stdout> ` prefix
//   removed and `stderr> ` kept, so the model can tell the streams apart; a
//   binary one (see mime.ts) contributes its MIME type and base64 data (a
//   `stdout> ` prefix on its lines is allowed and dropped).
// - A summary is the `summary` attribute, or else the cell title. A tool call
//   in summary mode stays a tool call (its id and tool name are kept, so its
//   results still pair with it); the summary replaces its arguments and text.
// - An output cell whose agent is unknown or that has no metadata is an
//   `assistant` message, as the reply it most likely is.
// - A message cell with `role="system"` is a system message (spec section
//   9, point 5); a `role` value that is not valid counts as the default, user.

import { lineEscapeAt, OpaqueCursor, opaqueSpans, type Cell, type Line, type MessageDocument } from '../syntax/document.js';
import { agentInfoAt } from '../agents/agents.js';
import { essence, isTextualMimeType, MIME_TYPE } from './mime.js';
import { contentLines, outputPrefix } from '../syntax/tree/output.js';

export type HistoryMode = 'include' | 'exclude' | 'summary';

/** The `history` values of spec section 5 and what they mean. */
export const HISTORY_MODES: Readonly<Record<string, HistoryMode>> = {
  include: 'include',
  '1': 'include',
  true: 'include',
  none: 'exclude',
  exclude: 'exclude',
  '0': 'exclude',
  false: 'exclude',
  summary: 'summary',
};

export type ViewRole = 'system' | 'user' | 'assistant' | 'tool-call' | 'tool-result' | 'code-output';

/**
 * The `role` of a message cell (spec section 5): `system` makes it a system
 * message at its place; anything else (`user`, the default, or a value
 * `attribute-value` reports) a user message.
 */
export function messageRole(doc: MessageDocument, cell: Cell): 'system' | 'user' {
  return doc.kindOf(cell) === 'message' && doc.attrOf(cell, 'role') === 'system' ? 'system' : 'user';
}

export interface ViewEntry {
  cell: Cell;
  role: ViewRole;
  /** 'body' for history=include (the default), 'summary' for history=summary. */
  contributes: 'body' | 'summary';
}

/** How a cell's history setting puts it in the view. */
export function historyMode(doc: MessageDocument, cell: Cell): HistoryMode {
  const v = doc.attrOf(cell, 'history');
  return (v !== undefined && Object.hasOwn(HISTORY_MODES, v) ? HISTORY_MODES[v] : undefined) ?? 'include';
}

/** True when the cell is in the LLM view (with its body or its summary). */
export function inView(doc: MessageDocument, cell: Cell): boolean {
  return historyMode(doc, cell) !== 'exclude';
}

export function viewRole(doc: MessageDocument, cell: Cell): ViewRole {
  switch (doc.kindOf(cell)) {
    case 'message':
      return messageRole(doc, cell);
    case 'tool-call':
      return 'tool-call';
    case 'tool-result':
      return 'tool-result';
    case 'code-output':
      return 'code-output';
    default:
      return 'assistant';
  }
}

/** The cells in the view, in file order, with what each contributes. */
export function llmView(doc: MessageDocument): ViewEntry[] {
  const out: ViewEntry[] = [];
  for (const cell of doc.cells) {
    const mode = historyMode(doc, cell);
    if (mode === 'exclude') continue;
    out.push({ cell, role: viewRole(doc, cell), contributes: mode === 'summary' ? 'summary' : 'body' });
  }
  return out;
}

// ---- cell text ----

export { contentLines, outputPrefix, type OutputStream } from '../syntax/tree/output.js';

/** The `mime_type` of a code output (default `text/plain`); undefined when it is not a valid MIME type. */
export function outputMimeType(doc: MessageDocument, cell: Cell): string | undefined {
  return mimeTypeOf(doc.attrOf(cell, 'mime_type'));
}

/** outputMimeType from the `mime_type` attribute's value (undefined: none). */
export function mimeTypeOf(attribute: string | undefined): string | undefined {
  if (attribute === undefined) return 'text/plain';
  return MIME_TYPE.test(attribute) ? essence(attribute) : undefined;
}

/** True for a code output whose body is base64 rather than stdout/stderr lines. */
export function isBinaryOutput(doc: MessageDocument, cell: Cell): boolean {
  return isBinaryMimeType(outputMimeType(doc, cell));
}

/** isBinaryOutput from the output's MIME type (mimeTypeOf). */
export function isBinaryMimeType(mime: string | undefined): boolean {
  return mime !== undefined && !isTextualMimeType(mime);
}

/**
 * The escaped lines of a cell's body (spec section 6) among `lines` (in
 * order): the offset of the backslash to drop, by line start. Undefined when
 * the cell has none.
 */
export function escapedLines(cell: Cell, lines: readonly Line[]): Map<number, number> | undefined {
  const text = cell.text;
  if (text.indexOf('\\') === -1) return undefined;
  let out: Map<number, number> | undefined;
  let cursor: OpaqueCursor | undefined;
  for (const l of lines) {
    const at = lineEscapeAt(text, l.start, l.contentEnd, 1);
    if (at === -1) continue;
    cursor ??= new OpaqueCursor(opaqueSpans(cell.parse));
    if (cursor.inside(l.start)) continue;
    (out ??= new Map()).set(l.start, at);
  }
  return out;
}

/** A line's piece, without the backslash of its escape when it has one. */
function linePiece(text: string, start: number, end: number, drop: number | undefined): BodyPiece {
  if (drop === undefined) return { start, end };
  if (drop === start) return { start: start + 1, end };
  return { start, end, text: text.slice(start, drop) + text.slice(drop + 1, end) };
}

/**
 * A piece of a cell's body: `text` when the view's text differs from the
 * file's (a binary output's header), else the cell text [start, end).
 */
export interface BodyPiece {
  start: number;
  end: number;
  text?: string;
  /** A line of a binary output's base64 data (joined without line breaks). */
  data?: boolean;
}

/**
 * The cell's body as the view has it (see the decisions above), as pieces of
 * the cell's text to be joined by line breaks. Offsets are relative to the
 * cell; nothing is copied, so a whole file's view is cheap to measure.
 */
export function bodyPieces(doc: MessageDocument, cell: Cell): BodyPiece[] {
  const text = cell.text;
  if (doc.kindOf(cell) === 'message' && doc.typeOf(cell) === 'code') {
    const block = cell.codeBlock;
    if (block && block.fence.close) {
      let end = block.fence.contentEnd;
      if (end > block.fence.contentStart && text.charCodeAt(end - 1) === 10) end--;
      if (end > block.fence.contentStart && text.charCodeAt(end - 1) === 13) end--;
      return [{ start: block.fence.contentStart, end }];
    }
  }
  const lines = contentLines(cell);
  if (doc.kindOf(cell) === 'code-output') {
    if (isBinaryOutput(doc, cell)) {
      const pieces: BodyPiece[] = [{ start: 0, end: 0, text: `[${outputMimeType(doc, cell)} base64]` }];
      const stderr: BodyPiece[] = [];
      for (const l of lines) {
        const pre = outputPrefix(text, l);
        if (pre?.stream === 'stderr') stderr.push({ start: l.start, end: l.contentEnd });
        else pieces.push({ start: pre ? pre.contentStart : l.start, end: l.contentEnd, data: true });
      }
      return [...pieces, ...stderr];
    }
    const drops = escapedLines(cell, lines);
    return lines.map((l) => {
      const pre = outputPrefix(text, l);
      if (!pre) return linePiece(text, l.start, l.contentEnd, drops?.get(l.start));
      return { start: pre.stream === 'stdout' ? pre.contentStart : l.start, end: l.contentEnd };
    });
  }
  const drops = escapedLines(cell, lines);
  return lines.map((l) => linePiece(text, l.start, l.contentEnd, drops?.get(l.start)));
}

/** The text of a cell's body as the view has it (see the decisions above). */
export function bodyText(doc: MessageDocument, cell: Cell): string {
  const pieces = bodyPieces(doc, cell);
  const whole = wholeRange(cell.text, pieces);
  // A slice of the file's text, not a copy: a view of a long file keeps no second text (docs/performance.md).
  if (whole) return cell.text.slice(whole.start, whole.end);
  const out: string[] = [];
  let data: string | undefined;
  for (const p of pieces) {
    const t = p.text ?? cell.text.slice(p.start, p.end);
    if (!p.data) {
      if (data !== undefined) out.push(data);
      data = undefined;
      out.push(t);
    } else data = (data ?? '') + t.replace(/[ \t]/g, ''); // base64 data is one string
  }
  if (data !== undefined) out.push(data);
  return out.join('\n');
}

/** The span the pieces cover when they are the text's own lines, one `\n` between each: their join is that slice. */
function wholeRange(text: string, pieces: readonly BodyPiece[]): { start: number; end: number } | undefined {
  if (pieces.length === 0) return undefined;
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    if (p.text !== undefined || p.data) return undefined;
    if (i > 0 && (pieces[i - 1]!.end + 1 !== p.start || text.charCodeAt(p.start - 1) !== 10)) return undefined;
  }
  return { start: pieces[0]!.start, end: pieces[pieces.length - 1]!.end };
}

/** The summary a `history=summary` cell contributes: its `summary` attribute, or else its title. */
export function summaryText(doc: MessageDocument, cell: Cell): string {
  const s = doc.attrOf(cell, 'summary');
  if (s !== undefined && s.trim() !== '') return s.trim();
  return cell.marker.titleText.trim();
}

/** What an entry of the view contributes. */
export function contributionText(doc: MessageDocument, entry: ViewEntry): string {
  return entry.contributes === 'summary' ? summaryText(doc, entry.cell) : bodyText(doc, entry.cell);
}

/**
 * The system prompt in force for a cell (spec section 9, item 2), as
 * `msglint export --until` the cell sends it: for an agent reply, its own
 * agent's `system_prompt` (none when that agent has none: a program that
 * addresses it sends none); for any other cell, the default agent's at that
 * point of the file.
 */
export function systemPromptFor(doc: MessageDocument, cell: Cell): string | undefined {
  const type = doc.typeOf(cell);
  const at = doc.offsetOf(cell);
  const agent = doc.kindOf(cell) === 'agent-reply' && type !== undefined ? type : doc.defaultAgentAt(at);
  return agent !== undefined ? agentInfoAt(doc, agent, at)?.settings.systemPrompt : undefined;
}

/**
 * How many of an assistant cell's body pieces (bodyPieces) its thinking
 * paragraph takes, with the blank lines after it; 0 when it has none. The
 * export splits the thinking off the same way (export/text.ts,
 * splitThinking): a first paragraph that starts with `[`, not `[^`, and ends
 * with `]`; an escaped `\\[…]` is not thinking (bodyText keeps its backslash).
 */
export function thinkingPieces(doc: MessageDocument, cell: Cell, pieces: readonly BodyPiece[]): number {
  if (pieces.length === 0 || viewRole(doc, cell) !== 'assistant') return 0;
  const text = (p: BodyPiece): string => p.text ?? cell.text.slice(p.start, p.end);
  const first = text(pieces[0]!).trimStart();
  if (!first.startsWith('[') || first.startsWith('[^')) return 0;
  const blank = (p: BodyPiece): boolean => /^[ \t]*$/.test(text(p));
  let end = 1;
  while (end < pieces.length && !blank(pieces[end]!)) end++;
  if (!text(pieces[end - 1]!).trimEnd().endsWith(']')) return 0;
  while (end < pieces.length && blank(pieces[end]!)) end++;
  return end;
}

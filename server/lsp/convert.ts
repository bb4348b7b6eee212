// From the engine's offsets to LSP positions and back. Positions go through
// the TextDocument of the client's version (its line breaks are the
// client's: LF, CRLF and a lone CR), so ranges always match what the editor
// shows.

import {
  DiagnosticSeverity,
  DiagnosticTag,
  type Diagnostic as LspDiagnostic,
  type Position,
  type Range,
  type TextEdit as LspTextEdit,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { getRule } from '../linter.js';
import type { Diagnostic, TextEdit } from '../engine/types.js';

export { lineAtOffset, lineStarts } from '../base/text.js';

export const SOURCE = 'msglint';

export function toRange(text: TextDocument, start: number, end: number): Range {
  return { start: text.positionAt(start), end: text.positionAt(end) };
}

/** An offset for a client position; positions past a line's or the document's end are clamped. */
export function toOffset(text: TextDocument, position: Position): number {
  const line = Math.max(0, Math.floor(Number(position?.line) || 0));
  const character = Math.max(0, Math.floor(Number(position?.character) || 0));
  return text.offsetAt({ line, character });
}

export function toOffsets(text: TextDocument, range: Range): [number, number] {
  const a = toOffset(text, range.start);
  const b = toOffset(text, range.end);
  return a <= b ? [a, b] : [b, a];
}

export function toTextEdit(text: TextDocument, edit: TextEdit): LspTextEdit {
  return { range: toRange(text, edit.range[0], edit.range[1]), newText: edit.text };
}

export function toLspDiagnostic(text: TextDocument, uri: string, d: Diagnostic): LspDiagnostic {
  const out: LspDiagnostic = {
    range: toRange(text, d.range.start.offset, d.range.end.offset),
    severity: d.severity === 2 ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: d.ruleId,
    source: SOURCE,
    message: d.message,
  };
  const rule = getRule(d.ruleId);
  if (rule) out.codeDescription = { href: rule.meta.docs };
  if (d.related?.length) {
    out.relatedInformation = d.related.map((r) => ({
      location: { uri, range: toRange(text, r.range.start.offset, r.range.end.offset) },
      message: r.message,
    }));
  }
  if (d.tags?.length) out.tags = d.tags.map((t) => (t === 2 ? DiagnosticTag.Deprecated : DiagnosticTag.Unnecessary));
  return out;
}

/** Whether [a, b) and [c, d) touch or overlap (an empty range touches what it sits on). */
export function intersects(a: number, b: number, c: number, d: number): boolean {
  return a <= d && c <= b;
}

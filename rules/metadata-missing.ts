import { defineRule } from '../server/engine/rule-kit.js';
import { metadataInsertion } from './cell-id-missing.js';
import type { Cell, MessageDocument } from '../server/syntax/document.js';

/** The type a metadata line for this cell would most likely have. */
function likelyType(doc: MessageDocument, cell: Cell): string | undefined {
  if (!cell.isOutput) return 'markdown';
  const segs = cell.id!.split('.');
  if (segs.length === 3) return 'tool';
  if (segs.length === 2) {
    const parent = doc.cellsById.get(segs[0]!)?.[0];
    if (/^\d+$/.test(segs[1]!) && parent !== undefined && doc.typeOf(parent) === 'code') return parent.codeBlock?.language || undefined;
    return 'tool';
  }
  return doc.defaultAgentAt(doc.offsetOf(cell));
}

/**
 * Whether a line `[^id]:` is among the lines a fence of the cell that never
 * closes holds: there it is code, and unclosed-fence reports the fence.
 */
function inUnclosedFence(cell: Cell, id: string): boolean {
  const text = cell.text;
  const head = `[^${id}]:`;
  for (const f of cell.parse.fences) {
    if (f.close) continue;
    for (let at = text.indexOf(head, f.contentStart); at !== -1 && at < f.contentEnd; at = text.indexOf(head, at + 1)) {
      let p = at;
      while (p > 0 && (text[p - 1] === ' ' || text[p - 1] === '\t')) p--;
      if (p === 0 || text[p - 1] === '\n') return true;
    }
  }
  return false;
}

export default defineRule(
  {
    id: 'metadata-missing',
    group: 'structure',
    severity: 'error',
    fixable: 'suggestion',
    description: 'A cell whose `[^id]` has no metadata line.',
  },
  ({ doc, report }) => {
    for (const cell of doc.cells) {
      const ref = cell.marker.idRef;
      if (!ref || doc.metadataOf(cell) || ref.id === '' || inUnclosedFence(cell, ref.id)) continue;
      const type = likelyType(doc, cell);
      const lineEnd = doc.abs(cell, cell.marker.span)[1];
      const { eol, after } = metadataInsertion(doc, cell);
      report({
        at: doc.abs(cell, ref.refSpan),
        message: `The cell \`${ref.id}\` has no metadata line \`[^${ref.id}]: [type]\`.`,
        suggestions: type
          ? [{ desc: `Insert \`[^${ref.id}]: [${type}]\` under the marker`, fix: { range: [lineEnd, lineEnd], text: `${eol}${eol}[^${ref.id}]: [${type}]${after}` } }]
          : undefined,
      });
    }
  },
);

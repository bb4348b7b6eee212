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
    if (/^\d+$/.test(segs[1]!) && parent?.type === 'code') return parent.codeBlock?.language || undefined;
    return 'tool';
  }
  return doc.defaultAgentAt(cell.offset);
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
    for (let i = 0, list = doc.cells; i < list.length; i++) {
      const cell = list[i]!;
      const ref = cell.marker.idRef;
      if (!ref || cell.metadata || ref.id === '') continue;
      const type = likelyType(doc, cell);
      const lineEnd = cell.abs(cell.marker.span)[1];
      const { eol, after } = metadataInsertion(doc, cell);
      report({
        at: cell.abs(ref.refSpan),
        message: `The cell \`${ref.id}\` has no metadata line \`[^${ref.id}]: [type]\`.`,
        suggestions: type
          ? [{ desc: `Insert \`[^${ref.id}]: [${type}]\` under the marker`, fix: { range: [lineEnd, lineEnd], text: `${eol}${eol}[^${ref.id}]: [${type}]${after}` } }]
          : undefined,
      });
    }
  },
);

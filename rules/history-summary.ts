import { borrowsMetadata, Cell } from '../server/syntax/document.js';
import { defineSegmentRule } from '../server/engine/rule-kit.js';

export default defineSegmentRule(
  {
    id: 'history-summary',
    group: 'structure',
    severity: 'warning',
    fixable: null,
    description: '`history=summary` on a cell with neither a `summary` attribute nor a title.',
  },
  (seg, { doc, report }) => {
    if (!(seg instanceof Cell)) return;
    const cell = seg;
    const m = doc.metadataOf(cell);
    if (!m) return;
    // A later cell with a duplicated id shares the first one's metadata line,
    // and a first one may have only the later one's: duplicate-id reports it.
    if (doc.cellsById.get(cell.id!)?.[0] !== cell || borrowsMetadata(doc, cell)) return;
    const h = m.node.attributes.find((a) => a.key === 'history');
    if (!h || h.value !== 'summary') return;
    if (m.node.attributes.some((a) => a.key === 'summary' && a.value.trim() !== '')) return;
    if (cell.marker.titleText.trim() !== '') return;
    report({
      at: doc.abs(m.segment, h.span),
      message: '`history=summary` needs a summary: add `summary="…"` or give the cell a title.',
    });
  },
);

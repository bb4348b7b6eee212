import { defineCellRule, ownsMetadata } from '../server/engine/rule-kit.js';

export default defineCellRule(
  {
    id: 'history-summary',
    group: 'structure',
    severity: 'warning',
    fixable: null,
    description: '`history=summary` on a cell with neither a `summary` attribute nor a title.',
  },
  (cell, { doc, report }) => {
    const m = doc.metadataOf(cell);
    if (!m || !ownsMetadata(doc, cell)) return;
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

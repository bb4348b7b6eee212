import { defineCellRule } from '../server/engine/rule-kit.js';

export default defineCellRule(
  {
    id: 'history-summary',
    group: 'structure',
    severity: 'warning',
    fixable: null,
    description: '`history=summary` on a cell with neither a `summary` attribute nor a title.',
  },
  (cell, input, { report }) => {
    const m = input.metadata;
    if (!m || !input.ownsMetadata) return;
    const h = m.node.attributes.find((a) => a.key === 'history');
    if (!h || h.value !== 'summary') return;
    if (m.node.attributes.some((a) => a.key === 'summary' && a.value.trim() !== '')) return;
    if (cell.marker.titleText.trim() !== '') return;
    report({
      at: input.abs(h.span, m.segment),
      message: '`history=summary` needs a summary: add `summary="…"` or give the cell a title.',
    });
  },
);

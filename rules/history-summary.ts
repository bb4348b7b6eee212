import { defineRule } from '../server/engine/rule-kit.js';

export default defineRule(
  {
    id: 'history-summary',
    group: 'structure',
    severity: 'warning',
    fixable: null,
    description: '`history=summary` on a cell with neither a `summary` attribute nor a title.',
  },
  ({ doc, report }) => {
    for (const cell of doc.cells) {
      const m = cell.metadata;
      if (!m) continue;
      // A later cell with a duplicated id shares the first one's metadata line; duplicate-id reports it.
      if (doc.cellsById.get(cell.id!)?.[0] !== cell) continue;
      const h = m.node.attributes.find((a) => a.key === 'history');
      if (!h || h.value !== 'summary') continue;
      if (m.node.attributes.some((a) => a.key === 'summary' && a.value.trim() !== '')) continue;
      if (cell.marker.titleText.trim() !== '') continue;
      report({
        at: m.segment.abs(h.span),
        message: '`history=summary` needs a summary: add `summary="…"` or give the cell a title.',
      });
    }
  },
);

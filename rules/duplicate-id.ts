import { defineRule } from '../server/engine/rule-kit.js';

export default defineRule(
  {
    id: 'duplicate-id',
    group: 'structure',
    severity: 'error',
    fixable: null,
    description: 'A second cell with an id already used.',
  },
  ({ doc, report }) => {
    for (const [id, cells] of doc.cellsById) {
      if (cells.length < 2) continue;
      const first = cells[0]!;
      const firstAt = first.abs(first.marker.idRef!.span);
      const line = doc.lines.lineOf(firstAt[0]) + 1;
      for (const cell of cells.slice(1)) {
        report({
          at: cell.abs(cell.marker.idRef!.span),
          message: `The id \`${id}\` is already used by the cell on line ${line}.`,
          related: [{ at: firstAt, message: `First use of \`${id}\`` }],
        });
      }
    }
  },
);

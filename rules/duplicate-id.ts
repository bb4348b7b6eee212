import { defineRule } from '../server/engine/rule-kit.js';

const rule = defineRule(
  {
    id: 'duplicate-id',
    group: 'structure',
    severity: 'error',
    fixable: null,
    description: 'A second cell with an id already used.',
    incremental: { mentionsLines: true, reads: [] }, // its messages name line numbers
  },
  ({ doc, report }) => {
    // Usually every id is used once: then there are as many ids as cells with one.
    let withId = 0;
    for (const cell of doc.cells) if (cell.id !== undefined) withId++;
    if (withId === doc.cellsById.size) return;
    for (const [id, cells] of doc.cellsById) {
      // An empty id names nothing (cell-id-syntax reports each one).
      if (cells.length < 2 || id === '') continue;
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
export default rule;

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
    // Usually every id is used once: then there are as many ids as cells with one.
    let withId = 0;
    for (const cell of doc.cells) if (cell.id !== undefined) withId++;
    if (withId === doc.cellsById.size) return;
    for (const cell of doc.cells) {
      const id = cell.id;
      // An empty id names nothing (cell-id-syntax reports each one).
      if (id === undefined || id === '') continue;
      const same = doc.cellsById.get(id)!;
      if (same.length < 2 || same[0] === cell) continue;
      const first = same[0]!;
      const firstAt = doc.abs(first, first.marker.idRef!.span);
      report({
        at: doc.abs(cell, cell.marker.idRef!.span),
        message: `The id \`${id}\` is already used by the cell on line {{line}}.`,
        related: [{ at: firstAt, message: `First use of \`${id}\`` }],
      });
    }
  },
);

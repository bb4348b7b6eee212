import { defineRule } from '../server/engine/rule-kit.js';
import { cellsOfKind, type Cell } from '../server/syntax/document.js';
import { codeParent } from './code-output-parent.js';

const POSITIVE = /^[1-9]\d*$/;

export default defineRule(
  {
    id: 'code-output-sequence',
    group: 'code-execution',
    severity: 'warning',
    fixable: null,
    description: 'Outputs of one code cell not numbered 1, 2, … without gaps or repeats.',
  },
  ({ doc, report, doubtfulIdBetween }) => {
    // Outputs of each valid code cell, in file order. Outputs of a missing or
    // wrong parent are left to code-output-parent; an N that is not a number
    // to cell-id-syntax; the same N twice is the same id (duplicate-id).
    const byParent = new Map<Cell, { cell: Cell; n: number }[]>();
    for (const cell of cellsOfKind(doc, 'code-output')) {
      // An output without metadata is only a guess (metadata-missing reports
      // it): it takes its number, and is not reported.
      const found = codeParent({ doc, doubtfulIdBetween }, cell);
      if (!found || !('parent' in found)) continue;
      const nText = cell.marker.idRef!.segments[1]!.text;
      if (!POSITIVE.test(nText)) continue;
      const list = byParent.get(found.parent) ?? [];
      list.push({ cell, n: Number(nText) });
      byParent.set(found.parent, list);
    }
    for (const [parent, outputs] of byParent) {
      const seen = new Set<number>();
      // Gaps count every output's number; order is judged against the
      // highest-numbered output whose kind is known (a guess is not reported,
      // and no report rests on it).
      let next = 1;
      let highest: { cell: Cell; n: number } | undefined;
      for (const { cell, n } of outputs) {
        if (!seen.has(n) && doc.kindKnown(cell)) {
          const at = doc.abs(cell, cell.marker.idRef!.segments[1]!.span);
          const id = `${parent.id}.${n}`;
          // A missing number may be an output cell in between whose id does not fit (cell-id-syntax reports it).
          if (n > next && !doubtfulIdBetween(doc.indexOf(parent), doc.indexOf(cell), true)) {
            const missing = n === next + 1 ? `\`${parent.id}.${next}\` is missing` : `\`${parent.id}.${next}\` to \`${parent.id}.${n - 1}\` are missing`;
            report({ at, message: `Outputs of the code cell \`${parent.id}\` are numbered 1, 2, … without gaps: ${missing} before \`${id}\`.` });
          } else if (highest && n < highest.n) {
            const before = highest.cell;
            report({
              at,
              message: `Outputs of the code cell \`${parent.id}\` are numbered in order: \`${id}\` comes after \`${before.id}\`.`,
              related: [{ at: doc.abs(before, before.marker.idRef!.span), message: `The output before it` }],
            });
          }
          if (!highest || n > highest.n) highest = { cell, n };
        }
        seen.add(n);
        next = Math.max(next, n + 1);
      }
    }
  },
);

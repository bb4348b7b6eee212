import { defineRule } from '../server/engine/rule-kit.js';

export default defineRule(
  {
    id: 'cell-marker',
    group: 'structure',
    severity: 'error',
    fixable: 'fix',
    description: 'A malformed percent marker: `#%%`, six or more `#`, four or more `%`, an indented marker, text glued to the percent signs.',
  },
  ({ doc, report }) => {
    for (const cell of doc.cells) {
      for (const problem of cell.marker.problems) {
        const at = cell.abs(problem.span);
        report({
          at: at[0] === at[1] ? [at[0], at[1] + 1] : at,
          message: problem.message,
          fix: problem.fix !== undefined ? { range: at, text: problem.fix } : undefined,
        });
      }
    }
  },
);

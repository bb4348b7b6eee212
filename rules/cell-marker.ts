import { defineSegmentRule } from '../server/engine/rule-kit.js';
import { Cell, MESSAGE_TYPES, type MessageDocument } from '../server/syntax/document.js';

/**
 * For `# %%%%`: the percent signs the cell's metadata type asks for, when it
 * settles the question (a message type: `%%`; `tool`, an agent or a
 * language: `%%%`).
 */
export function intendedPercents(doc: MessageDocument, cell: Cell): string | undefined {
  const type = cell.type;
  if (type === undefined) return undefined;
  if (MESSAGE_TYPES.has(type)) return '%%';
  if (type === 'tool' || doc.agents.some((a) => a.name === type) || doc.isLanguage(type)) return '%%%';
  return undefined;
}

export default defineSegmentRule(
  {
    id: 'cell-marker',
    group: 'structure',
    severity: 'error',
    fixable: 'fix',
    description: 'A malformed percent marker: `#%%`, six or more `#`, four or more `%`, an indented marker, text glued to the percent signs.',
  },
  (seg, { doc, report }) => {
    if (!(seg instanceof Cell)) return;
    const cell = seg;
    for (let i = 0, list = cell.marker.problems; i < list.length; i++) {
      const problem = list[i]!;
      const at = cell.abs(problem.span);
      let fix = problem.fix !== undefined ? { range: cell.abs(problem.fixSpan ?? problem.span), text: problem.fix } : undefined;
      let message = problem.message;
      if (problem.kind === 'too-many-percents') {
        const percents = intendedPercents(doc, cell);
        if (percents) {
          fix = { range: at, text: percents };
          message += ` The type \`${cell.type}\` makes it ${percents === '%%' ? "a message cell: '%%'" : "an output cell: '%%%'"}.`;
        }
      }
      report({ at: at[0] === at[1] ? [at[0], at[1] + 1] : at, message, fix });
    }
  },
);

import { defineCellRule } from '../server/engine/rule-kit.js';
import type { CellInput } from '../server/engine/cell-input.js';
import { MESSAGE_TYPES, type MarkerProblem } from '../server/syntax/document.js';

/**
 * For `# %%%%`: the percent signs the cell's metadata type asks for, when it
 * settles the question (a message type: `%%`; `tool`, an agent or a
 * language: `%%%`).
 */
function intendedPercents(input: CellInput): string | undefined {
  const type = input.type;
  if (type === undefined) return undefined;
  if (MESSAGE_TYPES.has(type)) return '%%';
  if (type === 'tool' || input.env.hasAgent(type) || input.env.isLanguage(type)) return '%%%';
  return undefined;
}

/** The message for a marker problem, and the text its fix puts at `fixSpan` (or `span`) when the intent is clear. */
function describe(problem: MarkerProblem): { message: string; fix?: string } {
  const count = problem.span.end - problem.span.start;
  switch (problem.kind) {
    case 'indented':
      return { message: 'A cell marker must start at the beginning of the line.', fix: '' };
    case 'too-many-hashes':
      return { message: `A cell marker has 1 to 5 '#', not ${count}.`, fix: '#####' };
    case 'no-space':
      return { message: "A cell marker needs one space between '#' and '%'.", fix: ' ' };
    case 'extra-space':
      return { message: "A cell marker has exactly one space between '#' and '%'.", fix: ' ' };
    case 'too-many-percents':
      return { message: `A cell marker has '%%' (message cell) or '%%%' (output cell), not ${count} '%'.` };
    case 'glued':
      return { message: 'Text is glued to the percent signs of the cell marker; put a space after them.', fix: ' ' };
  }
}

export default defineCellRule(
  {
    id: 'cell-marker',
    group: 'structure',
    severity: 'error',
    fixable: 'fix',
    description: 'A malformed percent marker: `#%%`, six or more `#`, four or more `%`, an indented marker, text glued to the percent signs.',
  },
  (cell, input, { report }) => {
    for (const problem of cell.marker.problems) {
      const at = input.abs(problem.span);
      const described = describe(problem);
      let message = described.message;
      let fix = described.fix !== undefined ? { range: input.abs(problem.fixSpan ?? problem.span), text: described.fix } : undefined;
      if (problem.kind === 'too-many-percents') {
        const percents = intendedPercents(input);
        if (percents) {
          fix = { range: at, text: percents };
          message += ` The type \`${input.type}\` makes it ${percents === '%%' ? "a message cell: '%%'" : "an output cell: '%%%'"}.`;
        }
      }
      report({ at: at[0] === at[1] ? [at[0], at[1] + 1] : at, message, fix });
    }
  },
);

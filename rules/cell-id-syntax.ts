import { defineCellRule, SEGMENT } from '../server/engine/rule-kit.js';
import { idMisfit, WELL_FORMED_ID, type CellKind } from '../server/syntax/document.js';

/** Why an id of this shape fits no cell kind of spec section 4, or null. */
function shapeProblem(kind: CellKind, id: string): string | null {
  const misfit = idMisfit(kind, id);
  if (misfit === undefined) return null;
  const segments = id.split('.');
  if (misfit === 'too-many') return `An id has at most three segments (PARENT.NONCE.N for a tool result), not ${segments.length}.`;
  const last = segments[segments.length - 1];
  switch (kind) {
    case 'message':
      return 'A message cell has a one-segment id, such as `1` or `intro`.';
    case 'agent-reply':
      return `An agent reply has a one-segment id; \`${id}\` has the shape of a tool call, tool result or code output.`;
    case 'tool-call':
      return 'A tool call id is PARENT.NONCE (two segments).';
    case 'tool-result':
      return misfit === 'count' ? 'A tool result id is PARENT.NONCE.N (three segments).' : `The last segment of a tool result id is its number N (1, 2, …), not \`${last}\`.`;
    default:
      // A code output (an id fits an output cell of unknown type whatever its shape).
      return misfit === 'count' ? 'A code output id is CODE.N (two segments).' : `The last segment of a code output id is its number N (1, 2, …), not \`${last}\`.`;
  }
}

export default defineCellRule(
  {
    id: 'cell-id-syntax',
    group: 'structure',
    severity: 'error',
    fixable: null,
    description: 'An id with characters outside `A-Z a-z 0-9 _ -`, an empty segment, or a shape that fits no cell kind.',
  },
  (cell, input, { report }) => {
    const ref = cell.marker.idRef;
    if (!ref) return;
    if (cell.marker.idNotLast) {
      report({ at: input.abs(ref.refSpan), message: 'The id reference `[^…]` must be the last thing on the marker line.' });
    }
    if (ref.id === '') {
      report({ at: input.abs(ref.refSpan), message: 'The id is empty.' });
      return;
    }
    // Nearly every id fits (a fact of the tree): its segments are made only when one does not.
    if (input.idFits) return;
    if (!WELL_FORMED_ID.test(ref.id)) {
      // Then a segment is empty or has another character.
      for (const part of ref.segments) {
        if (part.text === '') {
          report({ at: input.abs(ref.span), message: `The id \`${ref.id}\` has an empty segment (two dots, or a dot at an end).` });
          return;
        }
        if (!SEGMENT.test(part.text)) {
          const badChar = [...part.text].find((c) => !/[A-Za-z0-9_-]/.test(c));
          report({ at: input.abs(part.span), message: `An id segment uses only A-Z a-z 0-9 _ -; \`${part.text}\` has \`${badChar}\`.` });
        }
      }
      return;
    }
    const problem = shapeProblem(input.kind!, ref.id);
    if (problem) report({ at: input.abs(ref.span), message: problem });
  },
);

import { defineSegmentRule, SEGMENT } from '../server/engine/rule-kit.js';
import { Cell } from '../server/syntax/document.js';

const POSITIVE = /^[1-9]\d*$/;

/** Why an id of this shape fits no cell kind of spec section 4, or null. */
/** Segments of `A-Z a-z 0-9 _ -`, none empty. */
const WELL_FORMED = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

function shapeProblem(cell: Cell, segments: string[]): string | null {
  const n = segments.length;
  if (n > 3) return `An id has at most three segments (PARENT.NONCE.N for a tool result), not ${n}.`;
  switch (cell.cellType) {
    case 'message':
      return n === 1 ? null : 'A message cell has a one-segment id, such as `1` or `intro`.';
    case 'agent-reply':
      return n === 1 ? null : `An agent reply has a one-segment id; \`${segments.join('.')}\` has the shape of a tool call, tool result or code output.`;
    case 'tool-call':
      return n === 2 ? null : 'A tool call id is PARENT.NONCE (two segments).';
    case 'tool-result':
      if (n !== 3) return 'A tool result id is PARENT.NONCE.N (three segments).';
      return POSITIVE.test(segments[2]!) ? null : `The last segment of a tool result id is its number N (1, 2, …), not \`${segments[2]}\`.`;
    case 'code-output':
      if (n !== 2) return 'A code output id is CODE.N (two segments).';
      return POSITIVE.test(segments[1]!) ? null : `The last segment of a code output id is its number N (1, 2, …), not \`${segments[1]}\`.`;
    default:
      return null;
  }
}

export default defineSegmentRule(
  {
    id: 'cell-id-syntax',
    group: 'structure',
    severity: 'error',
    fixable: null,
    description: 'An id with characters outside `A-Z a-z 0-9 _ -`, an empty segment, or a shape that fits no cell kind.',
  },
  (seg, { report }) => {
    if (!(seg instanceof Cell)) return;
    const cell = seg;
    const ref = cell.marker.idRef;
    if (!ref) return;
    if (cell.marker.idNotLast) {
      report({ at: cell.abs(ref.refSpan), message: 'The id reference `[^…]` must be the last thing on the marker line.' });
    }
    if (ref.id === '') {
      report({ at: cell.abs(ref.refSpan), message: 'The id is empty.' });
      return;
    }
    // A well-formed id (nearly all) is checked from its text: its segments are made only when asked for.
    if (WELL_FORMED.test(ref.id)) {
      const problem = shapeProblem(cell, ref.id.split('.'));
      if (problem) report({ at: cell.abs(ref.span), message: problem });
      return;
    }
    let bad = false;
    for (let i = 0, list = ref.segments; i < list.length; i++) {
      const part = list[i]!;
      if (part.text === '') {
        report({ at: cell.abs(ref.span), message: `The id \`${ref.id}\` has an empty segment (two dots, or a dot at an end).` });
        bad = true;
        break;
      }
      if (!SEGMENT.test(part.text)) {
        const badChar = [...part.text].find((c) => !/[A-Za-z0-9_-]/.test(c));
        report({ at: cell.abs(part.span), message: `An id segment uses only A-Z a-z 0-9 _ -; \`${part.text}\` has \`${badChar}\`.` });
        bad = true;
      }
    }
    if (bad) return;
    const problem = shapeProblem(cell, ref.segments.map((s) => s.text));
    if (problem) report({ at: cell.abs(ref.span), message: problem });
  },
);

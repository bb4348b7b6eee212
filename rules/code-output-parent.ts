import { defineRule } from '../server/engine/rule-kit.js';
import type { Cell, MessageDocument } from '../server/syntax/document.js';

/**
 * The `[code]` cell a code output `CODE.N` answers, or why there is none.
 * Shared with the other code execution rules.
 */
export function codeParent(doc: MessageDocument, cell: Cell): { parent: Cell } | { problem: string; related?: Cell } | undefined {
  const ref = cell.marker.idRef;
  if (!ref || ref.segments.length !== 2) return undefined;
  const parentId = ref.segments[0]!.text;
  if (parentId === '') return undefined;
  const cells = doc.cellsById.get(parentId);
  const earlier = cells?.find((c) => c.offset < cell.offset);
  if (!earlier) {
    if (cells?.length) return { problem: `The code cell \`${parentId}\` comes after its output; a code output follows the \`[code]\` cell it answers.`, related: cells[0] };
    return { problem: `There is no cell \`${parentId}\`: a code output \`CODE.N\` answers an earlier \`[code]\` cell CODE.` };
  }
  if (earlier.isOutput || earlier.type !== 'code') {
    const what = earlier.isOutput ? 'an output cell' : earlier.type === undefined ? 'a cell without metadata' : `a \`[${earlier.type}]\` cell`;
    return { problem: `The cell \`${parentId}\` is ${what}, not a \`[code]\` cell: a code output answers a \`[code]\` cell.`, related: earlier };
  }
  return { parent: earlier };
}

export default defineRule(
  {
    id: 'code-output-parent',
    group: 'code-execution',
    severity: 'error',
    fixable: null,
    description: 'A code output `CODE.N` whose CODE is not an earlier `[code]` cell.',
  },
  ({ doc, report }) => {
    for (let i = 0, list = doc.cells; i < list.length; i++) {
      const cell = list[i]!;
      // Without metadata, an `X.N` id is only a guess at a code output (metadata-missing reports it).
      if (cell.cellType !== 'code-output' || !cell.metadata) continue;
      const found = codeParent(doc, cell);
      if (!found || 'parent' in found) continue;
      const ref = cell.marker.idRef!;
      const related = found.related;
      report({
        at: cell.abs(ref.segments[0]!.span),
        message: found.problem,
        related: related ? [{ at: related.abs(related.marker.idRef!.span), message: `The cell \`${ref.segments[0]!.text}\`` }] : undefined,
      });
    }
  },
);

import { defineRule } from '../server/engine/rule-kit.js';
import type { RuleContext } from '../server/engine/types.js';
import { cellsOfKind, type Cell } from '../server/syntax/document.js';

/**
 * The `[code]` cell a code output `CODE.N` answers, or why there is none.
 * Shared with the other code execution rules. Undefined also when the
 * answer rests on a cause reported elsewhere: the cell CODE has no metadata
 * type or a kind that is a guess, two earlier cells are CODE, or none is but
 * an earlier message cell's id names nothing reliably (it may be CODE).
 */
export function codeParent(
  { doc, doubtfulIdBetween }: Pick<RuleContext, 'doc' | 'doubtfulIdBetween'>,
  cell: Cell,
): { parent: Cell } | { problem: string; related?: Cell } | undefined {
  const ref = cell.marker.idRef;
  if (!ref || ref.segments.length !== 2) return undefined;
  const parentId = ref.segments[0]!.text;
  if (parentId === '') return undefined;
  const cells = doc.cellsById.get(parentId);
  const at = doc.offsetOf(cell);
  const earlier = cells?.find((c) => doc.offsetOf(c) < at);
  if (!earlier) {
    if (cells?.length) return { problem: `The code cell \`${parentId}\` comes after its output; a code output follows the \`[code]\` cell it answers.`, related: cells[0] };
    if (doubtfulIdBetween(-1, doc.indexOf(cell), false)) return undefined;
    return { problem: `There is no cell \`${parentId}\`: a code output \`CODE.N\` answers an earlier \`[code]\` cell CODE.` };
  }
  // metadata-missing, metadata-syntax or cell-marker (`# %%%%`) reports why
  // its type or kind is not known; duplicate-id, that two earlier cells have the id.
  const type = doc.typeOf(earlier);
  if (type === undefined || !doc.kindKnown(earlier) || (cells!.length > 1 && cells!.filter((c) => doc.offsetOf(c) < at).length > 1)) return undefined;
  if (earlier.isOutput || type !== 'code') {
    const what = earlier.isOutput ? 'an output cell' : `a \`[${type}]\` cell`;
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
  ({ doc, report, doubtfulIdBetween }) => {
    for (const cell of cellsOfKind(doc, 'code-output')) {
      // Without metadata, an `X.N` id is only a guess at a code output (metadata-missing reports it).
      if (!doc.kindKnown(cell) || !doc.metadataOf(cell)) continue;
      const found = codeParent({ doc, doubtfulIdBetween }, cell);
      if (!found || 'parent' in found) continue;
      const ref = cell.marker.idRef!;
      const related = found.related;
      report({
        at: doc.abs(cell, ref.segments[0]!.span),
        message: found.problem,
        related: related ? [{ at: doc.abs(related, related.marker.idRef!.span), message: `The cell \`${ref.segments[0]!.text}\`` }] : undefined,
      });
    }
  },
);

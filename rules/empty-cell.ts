import { Cell, isMetadataLine, type MetadataEntry, cellsOfKind } from '../server/syntax/document.js';
import { defineCellRule } from '../server/engine/rule-kit.js';
import type { ReportDescriptor, RuleContext } from '../server/engine/types.js';

/** Whether a cell has no content besides its marker and metadata. */
function isEmpty(cell: Cell, isMetadata: (m: MetadataEntry) => boolean): boolean {
  if (cell.parse.contentLineCount > 0) return false;
  // An ordinary footnote that starts with a bracketed word (`[^n]: [RFC 9110] …`)
  // is parsed as a metadata line, but it is content.
  for (const m of cell.entries) {
    if (m.node.type !== undefined && !isMetadata(m)) return false;
  }
  return true;
}

function emptyReport(at: [number, number], cell: Cell): ReportDescriptor {
  return { at, message: `The cell${cell.id ? ` \`${cell.id}\`` : ''} has no content.` };
}

export default defineCellRule(
  {
    id: 'empty-cell',
    group: 'structure',
    severity: 'warning',
    fixable: null,
    description: 'A cell with no content besides its marker and metadata.',
    // The cross-cell part: an agent reply is not empty when tool calls of its root name it as PARENT.
  },
  (cell, input, { report }) => {
    // An empty tool result or a run that printed nothing is data, not an
    // omission; a cell whose kind is a guess may be one (its id or metadata
    // is reported). An agent reply is checked across cells, below.
    const kind = input.kind;
    if (kind === 'tool-result' || kind === 'code-output' || kind === 'agent-reply' || !input.kindKnown) return;
    if (isEmpty(cell, (m) => input.isMetadataLine(m))) report(emptyReport(input.abs(cell.marker.span), cell));
  },
  emptyReplies,
);

/** Empty agent replies: the part of the rule that looks across cells. */
function emptyReplies({ doc, report }: RuleContext): void {
  // A reply that asks for tool calls may have no text: the tool call cells
  // that name it as PARENT are its content (spec section 6). They share
  let parents: Set<string> | undefined;
  for (const cell of cellsOfKind(doc, 'agent-reply')) {
    if (!doc.kindKnown(cell) || !isEmpty(cell, (m) => isMetadataLine(doc, m))) continue;
    if (cell.id !== undefined) {
      if (!parents) {
        parents = new Set();
        for (const c of cellsOfKind(doc, 'tool-call')) if (c.id !== undefined) parents.add(c.id.slice(0, c.id.indexOf('.')));
      }
      if (parents.has(cell.id)) continue;
    }
    report(emptyReport(doc.abs(cell, cell.marker.span), cell));
  }
}

import { type Cell, type MessageDocument, largestNumericRoot, cellsWithoutId, isMetadataLine } from '../server/syntax/document.js';
import { defineRule } from '../server/engine/rule-kit.js';
import type { TextEdit } from '../server/engine/types.js';

/**
 * How to insert a metadata line under a cell's marker: the line break to use
 * (the marker's own, or the file's when the marker is the last line) and
 * whether a blank line must follow it, so the line after the marker does not
 * run on into the footnote definition.
 */
export function metadataInsertion(doc: MessageDocument, cell: Cell): { eol: string; after: string } {
  const l = cell.parse.lines[0]!;
  const eol = l.end > l.contentEnd ? cell.eol : eolBefore(doc, cell);
  let after = '';
  if (l.end > l.contentEnd) {
    // The line after the marker, read from the cell (or the segment after it), not from the whole text.
    const next = l.end < cell.text.length ? cell.parse.lines[1] : undefined;
    const following = next ? undefined : doc.segmentAt(doc.endOf(cell));
    const line = next ? cell.text.slice(next.start, next.contentEnd) : following && following !== cell ? following.text.slice(0, following.text.search(/\r?\n|$/)) : '';
    if (line.trim() !== '') after = eol;
  }
  return { eol, after };
}

/**
 * The line break of the nearest line before a cell's marker: for a marker on
 * the file's last line. Read from the segments' own texts: an editor's whole
 * text may be a rope, which reading copies whole.
 */
function eolBefore(doc: MessageDocument, cell: Cell): string {
  const at = doc.segmentIndexOf(cell);
  for (let i = at - 1; i >= 0; i--) {
    const t = doc.segment(i)!.text;
    const n = t.lastIndexOf('\n');
    if (n !== -1) return n > 0 && t.charCodeAt(n - 1) === 13 ? '\r\n' : '\n';
  }
  return '\n';
}

export default defineRule(
  {
    id: 'cell-id-missing',
    group: 'structure',
    severity: 'warning',
    fixable: 'fix',
    description: 'A cell marker without `[^id]`.',
  },
  ({ doc, report }) => {
    let next = 0;
    for (const cell of cellsWithoutId(doc)) {
      const marker = cell.marker;
      if (next === 0) next = largestNumericRoot(doc) + 1;
      const lineAt = doc.abs(cell, marker.span);
      const tail = marker.title ? doc.abs(cell, marker.title)[1] : doc.abs(cell, marker.percents)[1];
      const { eol, after } = metadataInsertion(doc, cell);
      let fix: TextEdit | undefined;

      // A metadata line right under the marker whose id no cell uses: the
      // author only forgot the reference.
      const p = cell.parse;
      const orphan = p.placementStart >= 0 ? p.metadata.find((m) => m.span.start === p.placementStart) : undefined;
      if (
        orphan &&
        orphan.type !== undefined &&
        orphan.type !== 'agent' &&
        !doc.cellsById.has(orphan.idText) &&
        isMetadataLine(doc, { segment: cell, node: orphan })
      ) {
        fix = { range: [tail, lineAt[1]], text: `${marker.title ? '' : ' '}[^${orphan.idText}]` };
      } else if (!marker.problems.some((x) => x.kind === 'too-many-percents')) {
        // (With `%%%%` the kind of cell, and so the type to insert, is a guess.)
        const type = marker.kind === 'message' ? 'markdown' : doc.defaultAgentAt(doc.offsetOf(cell));
        if (type) {
          const id = String(next++);
          fix = { range: [tail, lineAt[1]], text: `${marker.title ? '' : ' '}[^${id}]${eol}${eol}[^${id}]: [${type}]${after}` };
        }
      }
      report({
        at: lineAt,
        message: 'This cell has no id: end the marker line with `[^id]` and give the id a metadata line.',
        fix,
      });
    }
  },
);

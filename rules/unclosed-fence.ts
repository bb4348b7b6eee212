import { defineSegmentRule } from '../server/engine/rule-kit.js';
import { isToolCellType } from '../server/tool-calls/index.js';

export default defineSegmentRule(
  {
    id: 'unclosed-fence',
    group: 'structure',
    severity: 'error',
    fixable: null,
    description: 'A fenced code block that is not closed before the next cell marker or the end of the file (also an HTML comment that is never closed).',
  },
  (input, { report }) => {
    const seg = input.segment;
    if (seg.kind !== 'cell' && seg.kind !== 'prologue') return;
    const p = seg.parse!;
    for (const f of p.fences) {
      if (f.close) continue;
      const fence = f.char.repeat(f.length);
      report({
        at: input.abs({ start: f.open.start + f.indent, end: f.open.contentEnd }),
        message: `This code fence is never closed: end the code with a line ${fence}. (Cell markers after it still start new cells.)`,
      });
    }
    // Spec section 2 reports every unclosed opaque construct; the catalog
    // has no rule of its own for comments, and this is the same mistake.
    // Inside a `<tool>` element whose XML is read, it is an XML error, which
    // tool-xml reports.
    const xmlRead = input.kind !== undefined && isToolCellType(input.kind) && input.kindKnown;
    for (const c of p.comments) {
      if (c.closed || (xmlRead && p.tools.some((t) => t.start < c.start && c.start < t.end))) continue;
      report({
        at: input.abs({ start: c.start, end: c.start + 4 }),
        message: 'This HTML comment is never closed: end it with -->. (Cell markers after it still start new cells.)',
      });
    }
  },
);

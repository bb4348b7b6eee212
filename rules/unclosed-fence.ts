import { defineRule } from '../server/engine/rule-kit.js';

export default defineRule(
  {
    id: 'unclosed-fence',
    group: 'structure',
    severity: 'error',
    fixable: null,
    description: 'A fenced code block that is not closed before the next cell marker or the end of the file.',
  },
  ({ doc, report }) => {
    for (const seg of doc.segments) {
      if (seg.kind !== 'cell' && seg.kind !== 'prologue') continue;
      for (const f of seg.parse!.fences) {
        if (f.close) continue;
        const fence = f.char.repeat(f.length);
        report({
          at: seg.abs({ start: f.open.start + f.indent, end: f.open.contentEnd }),
          message: `This code fence is never closed: end the code with a line ${fence}. (Cell markers after it still start new cells.)`,
        });
      }
    }
  },
);

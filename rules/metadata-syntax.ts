import { isMetadataLine } from '../server/syntax/metadata.js';
import { defineSegmentRule } from '../server/engine/rule-kit.js';

export default defineSegmentRule(
  {
    id: 'metadata-syntax',
    group: 'structure',
    severity: 'error',
    fixable: 'fix',
    description: 'A metadata line that does not parse: no `[TYPE]`, an unterminated quote, text that is not `key=value`.',
  },
  (seg, { doc, report }) => {
    if (seg.kind !== 'cell' && seg.kind !== 'prologue') return;
    for (let i = 0, list = seg.parse!.metadata; i < list.length; i++) {
      const node = list[i]!;
      const m = { segment: seg, node };
      // An ordinary Markdown footnote (`[^n]: text`) is not metadata.
      if (!isMetadataLine(doc, m)) continue;
      for (let j = 0, problems = m.node.problems; j < problems.length; j++) {
        const problem = problems[j]!;
        report({
          at: m.segment.abs(problem.span),
          message: problem.message,
          fix: problem.fix ? { range: m.segment.abs(problem.fix.span), text: problem.fix.text } : undefined,
        });
      }
    }
  },
);

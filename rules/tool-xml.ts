import { defineSegmentRule } from '../server/engine/rule-kit.js';
import { toolProblemsIn } from '../server/tool-calls/index.js';

export default defineSegmentRule(
  {
    id: 'tool-xml',
    group: 'tool-calls',
    severity: 'error',
    fixable: 'suggestion',
    description: 'A `<tool>` element that is not well-formed XML.',
  },
  (seg, { doc, report }) => {
    for (const p of toolProblemsIn(doc, seg, 'tool-xml')) {
      if (p.kind === 'unclosed') {
        report({ at: doc.abs(seg, p), message: '`<tool>` is not closed with `</tool>` in this cell.' });
        continue;
      }
      const e = p.error;
      const wrap = p.wrap;
      report({
        at: doc.abs(seg, p),
        message: p.ltMayBeText ? `${e.message} If the \`<\` is meant as text, write \`&lt;\` or put the value in a CDATA section.` : e.message,
        related: e.related ? [{ at: doc.abs(seg, e.related), message: e.related.message }] : undefined,
        suggestions: wrap ? [{ desc: `Put the text of \`<${wrap.name}>\` in a CDATA section`, fix: { range: doc.abs(seg, wrap), text: wrap.text } }] : undefined,
      });
    }
  },
);

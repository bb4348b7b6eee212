import { defineToolProblemRule } from '../server/engine/rule-kit.js';

export default defineToolProblemRule(
  {
    id: 'tool-xml',
    group: 'tool-calls',
    severity: 'error',
    fixable: 'suggestion',
    description: 'A `<tool>` element that is not well-formed XML.',
  },
  (p, input) => {
    if (p.kind === 'unclosed') return { message: '`<tool>` is not closed with `</tool>` in this cell.' };
    const e = p.error;
    const wrap = p.wrap;
    return {
      message: p.ltMayBeText ? `${e.message} If the \`<\` is meant as text, write \`&lt;\` or put the value in a CDATA section.` : e.message,
      related: e.related ? [{ at: input.abs(e.related), message: e.related.message }] : undefined,
      suggestions: wrap ? [{ desc: `Put the text of \`<${wrap.name}>\` in a CDATA section`, fix: { range: input.abs(wrap), text: wrap.text } }] : undefined,
    };
  },
);

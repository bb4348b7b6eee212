import { defineToolProblemRule } from '../server/engine/rule-kit.js';
import { cdataSection } from '../server/tool-calls/index.js';

export default defineToolProblemRule(
  {
    id: 'cdata-recommended',
    group: 'tool-calls',
    severity: 'warning',
    fixable: 'fix',
    description: 'A plain-text argument with several lines not in CDATA.',
  },
  (p, input) => ({
    message: `The value of \`<${p.name}>\` has several lines: put it in a CDATA section (\`<![CDATA[\` … \`]]>\`) so that code and \`<\`, \`&\` need no escaping.`,
    // The fix keeps the exact text: line ends as written, references decoded.
    fix: p.decoded !== undefined ? { range: input.abs(p), text: cdataSection(p.decoded) } : undefined,
  }),
);

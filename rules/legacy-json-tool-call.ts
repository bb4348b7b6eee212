import { defineToolProblemRule } from '../server/engine/rule-kit.js';

export default defineToolProblemRule(
  {
    id: 'legacy-json-tool-call',
    group: 'tool-calls',
    severity: 'warning',
    fixable: 'fix',
    description: 'A tool call in the deprecated JSON form.',
  },
  (p, input) => {
    const refused = 'refused' in p.rewrite ? p.rewrite.refused : undefined;
    return {
      message: `A tool call in the deprecated JSON form: write it in the XML form (\`<server_name>\`, \`<tool_name>\`, \`<arguments>\`).${refused ? ` No automatic rewrite: ${refused}.` : ''}`,
      fix: 'body' in p.rewrite ? { range: input.abs(p.body), text: p.rewrite.body } : undefined,
      // Tag 2: Deprecated (editors strike the text through).
      tags: [2],
    };
  },
);

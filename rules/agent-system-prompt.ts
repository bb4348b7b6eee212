import { defineRule } from '../server/engine/rule-kit.js';

export default defineRule(
  {
    id: 'agent-system-prompt',
    group: 'agents',
    severity: 'error',
    fixable: null,
    description: '`system_prompt` on a temporary agent.',
  },
  ({ doc, report }) => {
    for (const def of doc.agents) {
      if (def.source !== 'body' || !def.metadata) continue;
      const m = def.metadata;
      for (const a of m.node.attributes) {
        if (a.key !== 'system_prompt') continue;
        report({
          at: doc.abs(m.segment, a.span),
          message: `Only agents predefined in the frontmatter have a system prompt; define \`${def.name}\` under \`agents:\` to give it one.`,
        });
      }
    }
  },
);

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
    for (let i = 0, list = doc.agents; i < list.length; i++) {
      const def = list[i]!;
      if (def.source !== 'body' || !def.metadata) continue;
      const m = def.metadata;
      for (let j = 0, attributes = m.node.attributes; j < attributes.length; j++) {
        const a = attributes[j]!;
        if (a.key !== 'system_prompt') continue;
        report({
          at: m.segment.abs(a.span),
          message: `Only agents predefined in the frontmatter have a system prompt; define \`${def.name}\` under \`agents:\` to give it one.`,
        });
      }
    }
  },
);

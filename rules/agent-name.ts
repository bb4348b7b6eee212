import { defineRule, SEGMENT } from '../server/engine/rule-kit.js';
import { RESERVED_TYPES, type AgentDefinition } from '../server/syntax/document.js';

function where(def: AgentDefinition): string {
  return def.source === 'frontmatter' ? 'in the frontmatter' : 'by a temporary agent line';
}

/** How to keep a model name such as `claude-3.5-sonnet` while naming the agent validly. */
function hint(source: AgentDefinition['source'], name: string): string {
  const valid = name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  if (valid === '' || valid === name) return '';
  return source === 'body'
    ? ` Name it \`${valid}\` and keep the model as \`models="${name}"\`.`
    : ` Name it \`${valid}\` and keep the model in \`models\`.`;
}

export default defineRule(
  {
    id: 'agent-name',
    group: 'agents',
    severity: 'error',
    fixable: null,
    description: 'An agent name that is not a valid id segment or is reserved, or an agent defined twice.',
  },
  ({ doc, report }) => {
    // Agents named in the configuration are defined outside the file; a file may define them again.
    const defs = doc.agents.filter((d) => d.source !== 'config');
    const first = new Map<string, AgentDefinition>();
    for (const def of defs) {
      const name = def.name;
      if (!SEGMENT.test(name)) {
        const bad = name === '' ? undefined : [...name].find((c) => !/[A-Za-z0-9_-]/.test(c));
        report({
          at: def.at[1] > def.at[0] ? def.at : [def.at[0], def.at[0] + 1],
          message:
            bad === undefined
              ? 'An agent needs a name.'
              : `An agent name is one id segment (A-Z a-z 0-9 _ -), used as \`[name]\`; \`${name}\` has \`${bad === ' ' ? 'a space' : bad}\`.` + hint(def.source, name),
        });
      } else if (RESERVED_TYPES.has(name)) {
        report({ at: def.at, message: `\`${name}\` is a reserved type name (tool, agent, markdown, code, raw) and cannot name an agent.` });
      }
      const earlier = first.get(name);
      if (!earlier) {
        first.set(name, def);
        continue;
      }
      report({
        at: def.at,
        message: `The agent \`${name}\` is already defined ${where(earlier)} (line {{line}}); give this one another name.`,
        related: [{ at: earlier.at, message: `First definition of \`${name}\`` }],
      });
    }
  },
);

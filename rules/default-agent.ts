import { closest, defineRule } from '../server/engine/rule-kit.js';

/** A name that YAML reads back as the same string when written plain. */
function yamlScalar(name: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) && !/^(true|false|null|yes|no|on|off|y|n|~)$/i.test(name);
  return plain ? name : JSON.stringify(name);
}

export default defineRule(
  {
    id: 'default-agent',
    group: 'agents',
    severity: 'error',
    fixable: 'suggestion',
    description: '`default_agent` naming no agent.',
  },
  ({ doc, report }) => {
    const entry = doc.frontmatter?.defaultAgent;
    if (!entry) return;
    const v = entry.value;
    const names = [...new Set(doc.agents.map((a) => a.name))];
    const at: [number, number] = entry.valueSpan.end > entry.valueSpan.start ? [entry.valueSpan.start, entry.valueSpan.end] : [entry.keySpan.start, entry.keySpan.end];
    if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) {
      report({ at, message: '`default_agent` is empty; name one of the agents or remove the line.' });
      return;
    }
    if (typeof v !== 'string' && typeof v !== 'number') {
      report({ at, message: '`default_agent` is the name of one agent.' });
      return;
    }
    const name = String(v);
    // When the agents could not be read (agent-config says why), this one may be among them.
    if (names.includes(name) || !doc.agentsKnown) return;
    const best = closest(name, names);
    report({
      at,
      message: names.length
        ? `\`default_agent\` names \`${name}\`, which is not a defined agent (${names.map((n) => `\`${n}\``).join(', ')}).`
        : `\`default_agent\` names \`${name}\`, but no agent is defined: add it under \`agents:\`.`,
      suggestions: best ? [{ desc: `Change it to \`${best}\``, fix: { range: at, text: yamlScalar(best) } }] : undefined,
    });
  },
);

import { closest, defineRule } from '../server/engine/rule-kit.js';

export default defineRule(
  {
    id: 'unknown-agent',
    group: 'structure',
    severity: 'error',
    fixable: 'suggestion',
    description: 'An output cell whose type is not a defined agent, `tool` or a code output language.',
  },
  ({ doc, report }) => {
    for (const cell of doc.cells) {
      if (cell.cellType !== 'unknown-output') continue;
      const m = cell.metadata!;
      const type = m.node.type!;
      const at = m.segment.abs(m.node.typeSpan!);
      const later = doc.agents.find((a) => a.name === type && a.from > cell.offset);
      const usable = doc.agents.filter((a) => a.from <= cell.offset).map((a) => a.name);
      const best = closest(type, usable);
      const message = later
        ? `The agent \`${type}\` is declared later in the file (line ${doc.lines.lineOf(later.from) + 1}); a temporary agent can only answer after its declaration.`
        : `\`${type}\` is not a defined agent, \`tool\`, or a code output language. Define it in the frontmatter's \`agents\` or with \`[^${type}]: [agent]\`.`;
      report({
        at,
        message,
        suggestions: best ? [{ desc: `Change the type to the agent \`${best}\``, fix: { range: at, text: best } }] : undefined,
      });
    }
  },
);

import { closest, defineRule } from '../server/engine/rule-kit.js';
import { borrowsMetadata, MESSAGE_TYPES, RESERVED_TYPES, cellsOfUnknownType } from '../server/syntax/document.js';


const rule = defineRule(
  {
    id: 'unknown-agent',
    group: 'structure',
    severity: 'error',
    fixable: 'suggestion',
    description: 'An output cell whose type is not a defined agent, `tool` or a code output language.',
    incremental: { reads: ['unknown-output'] },
  },
  ({ doc, report }) => {
    // The list, not every cell: this rule runs whole after each edit that changes the cells' facts.
    for (const cell of cellsOfUnknownType(doc)) {
      // A later cell with a duplicated id shares the first one's metadata line,
      // and a first one may have only the later one's: duplicate-id reports it.
      if (doc.cellsById.get(cell.id!)?.[0] !== cell || borrowsMetadata(cell)) continue;
      const m = cell.metadata!;
      const type = m.node.type!;
      // `# %%%% [^1]` with `[markdown]`: a message cell with one '%' too many,
      // which cell-marker reports (and fixes).
      if (MESSAGE_TYPES.has(type) && cell.marker.problems.some((p) => p.kind === 'too-many-percents')) continue;
      const at = m.segment.abs(m.node.typeSpan!);
      const later = doc.agentsNamed(type).find((a) => a.from > cell.offset);
      const usable = doc.agents.filter((a) => a.from <= cell.offset).map((a) => a.name);
      const best = closest(type, usable);
      let message: string;
      if (later) {
        message = `The agent \`${type}\` is declared later in the file (line {{line}}); a temporary agent can only answer after its declaration.`;
      } else if (MESSAGE_TYPES.has(type)) {
        message = `\`${type}\` is the type of a message cell, but this is an output cell (\`%%%\`): write the marker with \`%%\`, or use an agent, \`tool\` or a language as the type.`;
      } else if (RESERVED_TYPES.has(type)) {
        message = `\`${type}\` declares a temporary agent and cannot be the type of a cell: use the name of an agent, \`tool\` or a language.`;
      } else if (!doc.agentsKnown) {
        // The frontmatter's agents could not be read: it may define this one (frontmatter-yaml or agent-config says why).
        continue;
      } else {
        message = `\`${type}\` is not a defined agent, \`tool\`, or a code output language. Define it in the frontmatter's \`agents\` or with \`[^${type}]: [agent]\`.`;
      }
      report({
        at,
        message,
        suggestions: best ? [{ desc: `Change the type to the agent \`${best}\``, fix: { range: at, text: best } }] : undefined,
        related: later ? [{ at: later.at, message: `The declaration of \`${type}\`` }] : undefined,
      });
    }
  },
);
export default rule;

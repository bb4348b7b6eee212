import { countAtMost } from '../server/base/sorted.js';
import { closest, defineRule, ownsMetadata } from '../server/engine/rule-kit.js';
import { cellsOfUnknownType, MESSAGE_TYPES, RESERVED_TYPES, type AgentDefinition } from '../server/syntax/document.js';

export default defineRule(
  {
    id: 'unknown-agent',
    group: 'structure',
    severity: 'error',
    fixable: 'suggestion',
    description: 'An output cell whose type is not a defined agent, `tool` or a code output language.',
  },
  ({ doc, report }) => {
    const agents = new AgentsByPosition(doc.agents);
    let budget = SUGGESTION_BUDGET;
    // The list, not every cell: this rule runs whole after each edit that changes the cells' facts.
    for (const cell of cellsOfUnknownType(doc)) {
      if (!ownsMetadata(doc, cell)) continue;
      const m = doc.metadataOf(cell)!;
      const type = m.node.type!;
      // `# %%%% [^1]` with `[markdown]`: a message cell with one '%' too many,
      // which cell-marker reports (and fixes).
      if (MESSAGE_TYPES.has(type) && cell.marker.problems.some((p) => p.kind === 'too-many-percents')) continue;
      const at = doc.abs(m.segment, m.node.typeSpan!);
      const offset = doc.offsetOf(cell);
      const later = agents.declaredAfter(type, offset);
      // Did you mean: as compilers do, only while its cost (the letters of
      // the type times those of the agents usable here, which bounds the
      // edit distances) fits in what is left of the file's budget.
      const usable = agents.usableCount(offset);
      const cost = type.length * agents.letters(usable);
      let best: string | undefined;
      if (cost <= budget) {
        budget -= cost;
        best = closest(type, agents.names(usable));
      }
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

/** How many of `agents` (ordered by `from`) are usable at `offset`. */
function usableIn(agents: readonly AgentDefinition[], offset: number): number {
  return countAtMost(agents.length, (k) => agents[k]!.from, offset);
}

/** Work allowed for the suggestions of one file: a few milliseconds. */
const SUGGESTION_BUDGET = 2_000_000;

/** The file's agents ordered by where they become usable, with what the rule asks of them in logarithmic time. */
class AgentsByPosition {
  private readonly ordered: AgentDefinition[];
  /** lettersBefore[k]: the letters of the names of the first k agents. */
  private readonly lettersBefore: number[] = [0];
  private readonly byName = new Map<string, AgentDefinition[]>();

  constructor(agents: readonly AgentDefinition[]) {
    this.ordered = [...agents].sort((a, b) => a.from - b.from);
    for (const a of this.ordered) {
      this.lettersBefore.push(this.lettersBefore.at(-1)! + a.name.length);
      const same = this.byName.get(a.name);
      if (same) same.push(a);
      else this.byName.set(a.name, [a]);
    }
  }

  /** The first agent of this name declared after `offset` (in file order), if any. */
  declaredAfter(name: string, offset: number): AgentDefinition | undefined {
    const same = this.byName.get(name);
    return same && same[usableIn(same, offset)];
  }

  /** How many agents are usable at `offset` (declared at or before it). */
  usableCount(offset: number): number {
    return usableIn(this.ordered, offset);
  }

  letters(count: number): number {
    return this.lettersBefore[count]!;
  }

  names(count: number): string[] {
    return this.ordered.slice(0, count).map((a) => a.name);
  }
}

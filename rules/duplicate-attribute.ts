import type { MetadataNode } from '../server/syntax/document.js';
import { defineSegmentRule } from '../server/engine/rule-kit.js';

type Attribute = MetadataNode['attributes'][number];

export default defineSegmentRule(
  {
    id: 'duplicate-attribute',
    group: 'structure',
    severity: 'error',
    fixable: null,
    description: 'The same key twice on one metadata line.',
  },
  (input, { report }) => {
    for (const m of input.segment.entries) {
      const attributes = m.node.attributes;
      if (attributes.length < 2 || m.node.type === undefined || !input.isMetadataLine(m)) continue;
      // A line has a few attributes: compared pairwise, with no map per line,
      // unless there are many (a map keeps a long line linear).
      const seen = attributes.length > 16 ? new Map<string, Attribute>() : undefined;
      for (let j = 0; j < attributes.length; j++) {
        const a = attributes[j]!;
        let first: Attribute | undefined;
        if (seen) {
          first = seen.get(a.key);
          if (!first) seen.set(a.key, a);
        } else {
          for (let k = 0; k < j && !first; k++) if (attributes[k]!.key === a.key) first = attributes[k];
        }
        if (!first) continue;
        report({
          at: input.abs(a.keySpan),
          message: `The key \`${a.key}\` appears twice on this metadata line.`,
          related: [{ at: input.abs(first.keySpan), message: `First \`${a.key}\`` }],
        });
      }
    }
  },
);

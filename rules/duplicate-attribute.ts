import { isMetadataLine } from '../server/syntax/metadata.js';
import { defineSegmentRule } from '../server/engine/rule-kit.js';

export default defineSegmentRule(
  {
    id: 'duplicate-attribute',
    group: 'structure',
    severity: 'error',
    fixable: null,
    description: 'The same key twice on one metadata line.',
  },
  (seg, { doc, report }) => {
    if (seg.kind !== 'cell' && seg.kind !== 'prologue') return;
    for (let i = 0, list = seg.parse!.metadata; i < list.length; i++) {
      const node = list[i]!;
      const m = { segment: seg, node };
      if (m.node.type === undefined || !isMetadataLine(doc, m)) continue;
      const seen = new Map<string, (typeof m.node.attributes)[number]>();
      for (let i = 0, list = m.node.attributes; i < list.length; i++) {
        const a = list[i]!;
        const first = seen.get(a.key);
        if (!first) {
          seen.set(a.key, a);
          continue;
        }
        report({
          at: m.segment.abs(a.keySpan),
          message: `The key \`${a.key}\` appears twice on this metadata line.`,
          related: [{ at: m.segment.abs(first.keySpan), message: `First \`${a.key}\`` }],
        });
      }
    }
  },
);

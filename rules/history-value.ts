import { closest, defineSegmentRule } from '../server/engine/rule-kit.js';

export const HISTORY_VALUES = ['include', '1', 'true', 'none', 'exclude', '0', 'false', 'summary'];
// Only words are candidates for a correction: `2` -> `1` is a guess, not a typo fix.
const WORDS = HISTORY_VALUES.filter((v) => /[a-z]/.test(v));

export default defineSegmentRule(
  {
    id: 'history-value',
    group: 'structure',
    severity: 'error',
    fixable: 'fix',
    description: "A `history` value outside section 5's list.",
  },
  (input, { report }) => {
    for (const m of input.segment.entries) {
      if (m.node.type === undefined || !input.isMetadataLine(m)) continue;
      for (const a of m.node.attributes) {
        if (a.key !== 'history' || HISTORY_VALUES.includes(a.value)) continue;
        const at = input.abs(a.valueSpan);
        const lower = a.value.toLowerCase();
        const best = HISTORY_VALUES.includes(lower) ? lower : closest(a.value, WORDS, { unique: true });
        report({
          at,
          message: `\`history\` is include, exclude or summary (or 1/true, 0/false/none), not \`${a.value}\`.`,
          fix: best ? { range: at, text: a.quoted ? `"${best}"` : best } : undefined,
        });
      }
    }
  },
);

import { defineRule } from '../server/engine/rule-kit.js';
import { toolGraph } from '../server/tool-calls/index.js';

const POSITIVE = /^[1-9][0-9]*$/;

export default defineRule(
  {
    id: 'tool-result-sequence',
    group: 'tool-calls',
    severity: 'warning',
    fixable: null,
    description: 'Results of one tool call not numbered 1, 2, … without gaps or repeats.',
  },
  ({ doc, report, doubtfulIdBetween }) => {
    const graph = toolGraph(doc);
    for (const callId of graph.resultsByCall.keys()) {
      const results = graph.resultsByCall.get(callId)!;
      const call = graph.callsById.get(callId)?.[0];
      // Without a call the results are orphans (tool-result-orphan). With one,
      // a result placed before it is an orphan too, but still takes its number.
      if (!call) continue;
      let expected = 1;
      const seen = new Set<number>();
      for (const r of results) {
        // A number that is not 1, 2, … is an id problem (cell-id-syntax).
        if (!POSITIVE.test(r.n)) continue;
        const n = Number(r.n);
        // The same number twice is the same id twice (duplicate-id).
        if (seen.has(n)) continue;
        seen.add(n);
        if (n === expected) {
          expected++;
          continue;
        }
        // A result that is only a guess (no metadata) still takes its number,
        // but is not reported; a missing number may be an output cell between
        // the call and this result whose id does not fit (cell-id-syntax).
        if (!doc.kindKnown(r.cell) || (n > expected && doubtfulIdBetween(doc.indexOf(call.cell), doc.indexOf(r.cell), true))) {
          expected = Math.max(expected, n + 1);
          continue;
        }
        const message =
          n > expected
            ? `Result ${n} of the tool call \`${callId}\` comes where result ${expected} is expected: results are numbered 1, 2, … without gaps.`
            : `Result ${n} of the tool call \`${callId}\` comes after result ${expected - 1}: results are numbered 1, 2, … in file order.`;
        report({ at: r.nAt(doc), message });
        expected = Math.max(expected, n + 1);
      }
    }
  },
);

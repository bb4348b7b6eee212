import { defineRule } from '../server/engine/rule-kit.js';
import { toolGraph } from '../server/tool-calls/index.js';

export default defineRule(
  {
    id: 'tool-call-nonce',
    group: 'tool-calls',
    severity: 'warning',
    fixable: null,
    description: 'A nonce shorter than 4 characters or made only of digits.',
  },
  ({ doc, report }) => {
    for (const call of toolGraph(doc).calls) {
      // Without metadata, an id of this shape is only a guess at a tool call (metadata-missing reports it).
      if (!doc.kindKnown(call.cell)) continue;
      const n = call.nonce;
      let why: string | undefined;
      if (n.length < 4) why = `is ${n.length === 1 ? 'one character' : `${n.length} characters`} long; use at least 4`;
      else if (/^[0-9]+$/.test(n)) why = 'is made only of digits, like a counter; mix in letters';
      else if (/[^a-z0-9]/.test(n)) why = `has \`${/[^a-z0-9]/.exec(n)![0]}\`; a nonce uses only a-z and 0-9`;
      if (!why) continue;
      report({
        at: call.nonceAt(doc),
        message: `The nonce \`${n}\` ${why}. A random nonce such as \`k7f3q\` keeps tool calls from being forged or replayed by copying.`,
      });
    }
  },
);

import { defineRule } from '../server/engine/rule-kit.js';
import { toolGraph, type CallRef } from '../server/tool-calls/index.js';

const rule = defineRule(
  {
    id: 'nonce-reused',
    group: 'tool-calls',
    severity: 'error',
    fixable: null,
    description: 'A nonce used by two tool calls.',
    incremental: { mentionsLines: true, reads: ['tool-call', 'tool-result'] }, // its messages name line numbers
  },
  ({ doc, report }) => {
    const first = new Map<string, CallRef>();
    for (const call of toolGraph(doc).calls) {
      // Without metadata, an id of this shape is only a guess at a tool call (metadata-missing reports it).
      if (!call.cell.kindKnown) continue;
      const prev = first.get(call.nonce);
      if (!prev) {
        first.set(call.nonce, call);
        continue;
      }
      // The same whole id is a repeated id, which duplicate-id reports.
      if (prev.id === call.id) continue;
      report({
        at: call.nonceAt,
        message: `The nonce \`${call.nonce}\` is already used by the tool call \`${prev.id}\` (line ${doc.lines.lineOf(prev.cell.offset) + 1}); every tool call needs its own.`,
        related: [{ at: prev.nonceAt, message: `First use of \`${call.nonce}\`` }],
      });
    }
  },
);
export default rule;

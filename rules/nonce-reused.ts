import { defineRule } from '../server/engine/rule-kit.js';
import { toolGraph, type CallRef } from '../server/tool-calls/index.js';

export default defineRule(
  {
    id: 'nonce-reused',
    group: 'tool-calls',
    severity: 'error',
    fixable: null,
    description: 'A nonce used by two tool calls.',
  },
  ({ doc, report }) => {
    const graph = toolGraph(doc);
    for (const nonce of graph.reusedNonces.keys()) {
      let first: CallRef | undefined;
      for (const call of graph.callsByNonce.get(nonce)!) {
        // Without metadata, an id of this shape is only a guess at a tool call (metadata-missing reports it).
        if (!doc.kindKnown(call.cell)) continue;
        if (!first) {
          first = call;
          continue;
        }
        // The same whole id is a repeated id, which duplicate-id reports.
        if (first.id === call.id) continue;
        report({
          at: call.nonceAt(doc),
          message: `The nonce \`${call.nonce}\` is already used by the tool call \`${first.id}\` (line {{line}}); every tool call needs its own.`,
          related: [{ at: first.nonceAt(doc), message: `First use of \`${call.nonce}\`` }],
        });
      }
    }
  },
);

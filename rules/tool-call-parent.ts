import { defineRule } from '../server/engine/rule-kit.js';
import type { CellKind } from '../server/syntax/document.js';
import { toolGraph } from '../server/tool-calls/index.js';

const KIND: Record<CellKind, string> = {
  message: 'a message cell',
  'agent-reply': 'an agent reply',
  'tool-call': 'a tool call',
  'tool-result': 'a tool result',
  'code-output': 'a code output',
  'unknown-output': 'an output cell of unknown type',
  'untyped-output': 'an output cell without metadata',
};

export default defineRule(
  {
    id: 'tool-call-parent',
    group: 'tool-calls',
    severity: 'error',
    fixable: null,
    description: 'A tool call whose PARENT is not an earlier agent reply cell.',
  },
  ({ doc, report, doubtfulIdBetween }) => {
    for (const call of toolGraph(doc).calls) {
      // Without metadata, an id of this shape is only a guess at a tool call (metadata-missing reports it).
      if (!doc.kindKnown(call.cell)) continue;
      const cells = doc.cellsById.get(call.parent) ?? [];
      const index = doc.indexOf(call.cell);
      const earlier = cells.filter((c) => doc.indexOf(c) < index);
      if (earlier.some((c) => doc.kindOf(c) === 'agent-reply')) continue;
      // A reply whose kind is unknown (its agent is unknown, it has no
      // metadata) is reported as such (unknown-agent, metadata-missing).
      if (earlier.some((c) => !doc.kindKnown(c))) continue;
      // No such cell, while an earlier output cell's id names nothing reliably: that may be the reply (cell-id-syntax).
      if (!cells.length && doubtfulIdBetween(-1, index, true)) continue;
      const id = `\`${call.parent}\``;
      let message: string;
      let related: { at: [number, number]; message: string }[] | undefined;
      const target = earlier[0] ?? cells[0];
      if (earlier.length) {
        message = `The parent ${id} of this tool call is ${KIND[doc.kindOf(earlier[0]!)]}, not an agent reply.`;
      } else if (cells.length) {
        message = `The parent ${id} of this tool call comes after it (line {{line}}); the agent reply that asks for a call comes before it.`;
      } else {
        message = `No cell has the id ${id}: a tool call's id is PARENT.NONCE, where PARENT is the id of the agent reply that asked for it.`;
      }
      if (target?.marker.idRef) related = [{ at: doc.abs(target, target.marker.idRef.span), message: `The cell ${id}` }];
      report({ at: call.parentAt(doc), message, related });
    }
  },
);

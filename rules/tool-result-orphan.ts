import { defineRule } from '../server/engine/rule-kit.js';
import { toolGraph } from '../server/tool-calls/index.js';

export default defineRule(
  {
    id: 'tool-result-orphan',
    group: 'tool-calls',
    severity: 'error',
    fixable: null,
    description: 'A tool result whose `PARENT.NONCE` is not an earlier tool call.',
  },
  ({ doc, report, doubtfulIdBetween }) => {
    const graph = toolGraph(doc);
    /**
     * Whether a cell whose id names nothing reliably (cell-id-syntax,
     * cell-id-missing or duplicate-id reports it) could be the missing call
     * `PARENT.NONCE`: an output cell after the first cell with the id
     * PARENT (a call follows the reply that asked for it) and before the
     * result. With no cell PARENT before the result, no cell could be the
     * call's parent, and the result is reported whatever ids are malformed.
     */
    const mayBeTheCall = (callId: string, at: number): boolean => {
      const parent = doc.cellsById.get(callId.slice(0, callId.lastIndexOf('.')))?.find((c) => doc.indexOf(c) < at);
      return parent !== undefined && doubtfulIdBetween(doc.indexOf(parent), at, true);
    };
    for (const r of graph.results) {
      // Without metadata, an id of this shape is only a guess at a tool result (metadata-missing reports it).
      if (!doc.kindKnown(r.cell)) continue;
      const calls = graph.callsById.get(r.callId) ?? [];
      const index = doc.indexOf(r.cell);
      if (calls.some((c) => doc.indexOf(c.cell) < index)) continue;
      const id = `\`${r.callId}\``;
      const other = doc.cellsById.get(r.callId)?.[0];
      // A cell of unknown kind may be the call; an output cell whose id
      // names nothing reliably, where the call could be, may be it too.
      if (other && !doc.kindKnown(other)) continue;
      if (!calls.length && !other && mayBeTheCall(r.callId, index)) continue;
      let message: string;
      if (calls.length) {
        message = `The tool call ${id} comes after this result (line {{line}}); a result follows its call.`;
      } else if (other) {
        message = `The cell ${id} is not a tool call, so this cannot be its result.`;
      } else {
        message = `No tool call ${id} for this result: a tool result's id is PARENT.NONCE.N, where PARENT.NONCE is the id of its tool call.`;
      }
      const target = calls[0]?.cell ?? other;
      report({
        at: r.callAt(doc),
        message,
        related: target?.marker.idRef ? [{ at: doc.abs(target, target.marker.idRef.span), message: `The cell ${id}` }] : undefined,
      });
    }
  },
);

import { defineRule } from '../server/engine/rule-kit.js';
import { toolGraph } from '../server/tool-calls/index.js';

export default defineRule(
  {
    id: 'tool-call-unanswered',
    group: 'tool-calls',
    severity: 'warning',
    fixable: null,
    description: 'A tool call with no result, unless it is the last cell of the file.',
  },
  ({ doc, report, doubtfulIdBetween }) => {
    // The graph keeps the calls with no result after them.
    for (const call of toolGraph(doc).unanswered.values()) {
      // Without metadata, an id of this shape is only a guess at a tool call (metadata-missing reports it).
      if (!doc.kindKnown(call.cell)) continue;
      // A later output cell whose id names nothing reliably may be its result (cell-id-syntax reports it).
      const index = doc.indexOf(call.cell);
      if (doubtfulIdBetween(index, doc.cellCount, true)) continue;
      // Calls at the end of the file, with only tool calls after them, are still running.
      let running = true;
      for (let i = index + 1; i < doc.cellCount && running; i++) {
        if (doc.kindOf(doc.cell(i)!) !== 'tool-call') running = false;
      }
      if (running) continue;
      report({
        at: doc.abs(call.cell, call.cell.marker.idRef!.span),
        message: `The tool call \`${call.id}\` has no result: add a cell \`[^${call.id}.1]\` with type \`tool\` after it.`,
      });
    }
  },
);

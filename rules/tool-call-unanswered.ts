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
  ({ doc, report }) => {
    const graph = toolGraph(doc);
    for (let j = 0, list = graph.calls; j < list.length; j++) {
      const call = list[j]!;
      const results = graph.resultsByCall.get(call.id) ?? [];
      if (results.some((r) => r.cell.index > call.cell.index)) continue;
      // Calls at the end of the file, with only tool calls after them, are still running.
      let running = true;
      for (let i = call.cell.index + 1; i < doc.cells.length && running; i++) {
        if (doc.cells[i]!.cellType !== 'tool-call') running = false;
      }
      if (running) continue;
      report({
        at: call.cell.abs(call.cell.marker.idRef!.span),
        message: `The tool call \`${call.id}\` has no result: add a cell \`[^${call.id}.1]\` with type \`tool\` after it.`,
      });
    }
  },
);

import { defineRootRule } from '../server/engine/rule-kit.js';
import type { Cell } from '../server/syntax/document.js';
import { historyMode, inView } from '../server/llm-view/view.js';
import { HISTORY_VALUES } from './history-value.js';

function historyAttr(cell: Cell): [number, number] | undefined {
  const m = cell.metadata;
  const a = m?.node.attributes.find((x) => x.key === 'history');
  return a && m ? m.segment.abs(a.span) : undefined;
}

/**
 * Whether the cell's place in the view is what its author wrote: its kind is
 * not a guess, and a `history` value it has is valid. An invalid one counts
 * as include, which may not be what was meant (history-value reports it).
 */
function settled(cell: Cell): boolean {
  const v = cell.attr('history');
  return cell.kindKnown && (v === undefined || HISTORY_VALUES.includes(v));
}

const state = (cell: Cell): string => (inView(cell) ? (historyMode(cell) === 'summary' ? 'in the LLM view (as a summary)' : 'in the LLM view') : 'left out of the LLM view');

export default defineRootRule(
  {
    id: 'history-split-pair',
    group: 'llm-view',
    severity: 'error',
    fixable: null,
    description: 'A tool call and its results whose `history` settings put one in the LLM view and leave the other out.',
  },
  ({ cells, report }) => {
    // Results by the id of the call they answer (PARENT.NONCE), in file order.
    const results = new Map<string, Cell[]>();
    for (const cell of cells) {
      if (cell.cellKind !== 'tool-result' || !cell.id || !settled(cell)) continue;
      const key = cell.id.slice(0, cell.id.lastIndexOf('.'));
      const list = results.get(key);
      if (list) list.push(cell);
      else results.set(key, [cell]);
    }
    const done = new Set<string>();
    for (const call of cells) {
      if (call.cellKind !== 'tool-call' || !call.id || done.has(call.id) || !settled(call)) continue;
      done.add(call.id);
      const callIn = inView(call);
      const split = (results.get(call.id) ?? []).filter((r) => r.offset > call.offset && inView(r) !== callIn);
      if (!split.length) continue;
      const callAttr = historyAttr(call);
      const onCall: Cell[] = [];
      for (const r of split) {
        const attr = historyAttr(r);
        if (attr) {
          report({
            at: attr,
            message: `This tool result is ${state(r)} but its tool call \`${call.id}\` is ${state(call)}: a call and its results are included or left out together (provider APIs reject a call without its result, or a result without its call).`,
            related: [{ at: call.abs(call.marker.idRef!.span), message: 'The tool call' }],
          });
        } else onCall.push(r);
      }
      // Results that follow the default (include) while the call is left out: the call's setting splits the pair.
      if (onCall.length && callAttr) {
        const ids = onCall.map((r) => `\`${r.id}\``).join(', ');
        report({
          at: callAttr,
          message: `This tool call is ${state(call)} but its result${onCall.length > 1 ? 's' : ''} ${ids} ${onCall.length > 1 ? 'are' : 'is'} in it: a call and its results are included or left out together; set the same \`history\` on ${onCall.length > 1 ? 'them' : 'it'}.`,
          related: onCall.map((r) => ({ at: r.abs(r.marker.idRef!.span), message: 'A result in the LLM view' })),
        });
      }
    }
  },
);

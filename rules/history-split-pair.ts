import { defineRule } from '../server/engine/rule-kit.js';
import { cellsOfKind, type Cell, type MessageDocument } from '../server/syntax/document.js';
import { HISTORY_MODES, historyMode, inView } from '../server/llm-view/view.js';
import { HISTORY_VALUES } from './history-value.js';

function historyAttr(doc: MessageDocument, cell: Cell): [number, number] | undefined {
  const m = doc.metadataOf(cell);
  const a = m?.node.attributes.find((x) => x.key === 'history');
  return a && m ? doc.abs(m.segment, a.span) : undefined;
}

/**
 * Whether the cell's place in the view is what its author wrote: its kind is
 * not a guess, and a `history` value it has is valid. An invalid one counts
 * as include, which may not be what was meant (history-value reports it).
 */
function settled(doc: MessageDocument, cell: Cell): boolean {
  const v = doc.attrOf(cell, 'history');
  return doc.kindKnown(cell) && (v === undefined || HISTORY_VALUES.includes(v));
}

/** Whether any metadata line leaves its cell out of the view: without one, nothing is split. */
function anyExcluded(doc: MessageDocument): boolean {
  for (const m of doc.metadata) {
    for (const a of m.node.attributes) if (a.key === 'history' && Object.hasOwn(HISTORY_MODES, a.value) && HISTORY_MODES[a.value] === 'exclude') return true;
  }
  return false;
}

const state = (doc: MessageDocument, cell: Cell): string => (inView(doc, cell) ? (historyMode(doc, cell) === 'summary' ? 'in the LLM view (as a summary)' : 'in the LLM view') : 'left out of the LLM view');

export default defineRule(
  {
    id: 'history-split-pair',
    group: 'llm-view',
    severity: 'error',
    fixable: null,
    description: 'A tool call and its results whose `history` settings put one in the LLM view and leave the other out.',
  },
  ({ doc, report }) => {
    if (!anyExcluded(doc)) return;
    // Results by the id of the call they answer (PARENT.NONCE), in file order.
    const results = new Map<string, Cell[]>();
    for (const cell of cellsOfKind(doc, 'tool-result')) {
      if (!cell.id || !settled(doc, cell)) continue;
      const key = cell.id.slice(0, cell.id.lastIndexOf('.'));
      const list = results.get(key);
      if (list) list.push(cell);
      else results.set(key, [cell]);
    }
    const done = new Set<string>();
    for (const call of cellsOfKind(doc, 'tool-call')) {
      if (!call.id || done.has(call.id) || !settled(doc, call)) continue;
      done.add(call.id);
      const callIn = inView(doc, call);
      const callAt = doc.offsetOf(call);
      const split = (results.get(call.id) ?? []).filter((r) => doc.offsetOf(r) > callAt && inView(doc, r) !== callIn);
      if (!split.length) continue;
      const callAttr = historyAttr(doc, call);
      const onCall: Cell[] = [];
      for (const r of split) {
        const attr = historyAttr(doc, r);
        if (attr) {
          report({
            at: attr,
            message: `This tool result is ${state(doc, r)} but its tool call \`${call.id}\` is ${state(doc, call)}: a call and its results are included or left out together (provider APIs reject a call without its result, or a result without its call).`,
            related: [{ at: doc.abs(call, call.marker.idRef!.span), message: 'The tool call' }],
          });
        } else onCall.push(r);
      }
      // Results that follow the default (include) while the call is left out: the call's setting splits the pair.
      if (onCall.length && callAttr) {
        const ids = onCall.map((r) => `\`${r.id}\``).join(', ');
        report({
          at: callAttr,
          message: `This tool call is ${state(doc, call)} but its result${onCall.length > 1 ? 's' : ''} ${ids} ${onCall.length > 1 ? 'are' : 'is'} in it: a call and its results are included or left out together; set the same \`history\` on ${onCall.length > 1 ? 'them' : 'it'}.`,
          related: onCall.map((r) => ({ at: doc.abs(r, r.marker.idRef!.span), message: 'A result in the LLM view' })),
        });
      }
    }
  },
);

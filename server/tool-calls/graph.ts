// How tool calls and results hang together (spec section 4): a tool call
// `PARENT.NONCE` answers the agent reply PARENT, a result `PARENT.NONCE.N`
// answers the call `PARENT.NONCE`. Computed once per document.

import type { Cell, CellType, MessageDocument } from '../syntax/document.js';
import { Memo } from '../syntax/memo.js';

const SEGMENT = /^[A-Za-z0-9_-]+$/;

export interface CallRef {
  cell: Cell;
  id: string;
  parent: string;
  nonce: string;
  /** Absolute offsets of the PARENT and NONCE segments in the marker. */
  parentAt: [number, number];
  nonceAt: [number, number];
}

export interface ResultRef {
  cell: Cell;
  /** `PARENT.NONCE` */
  callId: string;
  n: string;
  /** Absolute offsets of `PARENT.NONCE` and of N in the marker. */
  callAt: [number, number];
  nAt: [number, number];
}

export interface ToolGraph {
  /** Tool call cells with a well-formed two-segment id, in file order. */
  calls: CallRef[];
  /** Tool result cells with a well-formed three-segment id, in file order. */
  results: ResultRef[];
  /** Calls by id (several when the id is repeated). */
  callsById: Map<string, CallRef[]>;
  /** Results by `PARENT.NONCE`, in file order. */
  resultsByCall: Map<string, ResultRef[]>;
}

const graphs = new Memo<MessageDocument, ToolGraph>();

export function toolGraph(doc: MessageDocument): ToolGraph {
  let g = graphs.get(doc);
  if (g) return g;
  g = { calls: [], results: [], callsById: new Map(), resultsByCall: new Map() };
  for (const cell of doc.cells) {
    if (cell.cellType !== 'tool-call' && cell.cellType !== 'tool-result') continue;
    const ref = cell.marker.idRef;
    if (!ref || !ref.segments.every((s) => SEGMENT.test(s.text))) continue;
    const segs = ref.segments;
    if (cell.cellType === 'tool-call' && segs.length === 2) {
      const call: CallRef = {
        cell,
        id: ref.id,
        parent: segs[0]!.text,
        nonce: segs[1]!.text,
        parentAt: cell.abs(segs[0]!.span),
        nonceAt: cell.abs(segs[1]!.span),
      };
      g.calls.push(call);
      const list = g.callsById.get(call.id);
      if (list) list.push(call);
      else g.callsById.set(call.id, [call]);
    } else if (cell.cellType === 'tool-result' && segs.length === 3) {
      const result: ResultRef = {
        cell,
        callId: `${segs[0]!.text}.${segs[1]!.text}`,
        n: segs[2]!.text,
        callAt: cell.abs({ start: segs[0]!.span.start, end: segs[1]!.span.end }),
        nAt: cell.abs(segs[2]!.span),
      };
      g.results.push(result);
      const list = g.resultsByCall.get(result.callId);
      if (list) list.push(result);
      else g.resultsByCall.set(result.callId, [result]);
    }
  }
  graphs.set(doc, g);
  return g;
}

export function isToolCellType(t: CellType): boolean {
  return t === 'tool-call' || t === 'agent-reply';
}

/** Cells whose `<tool>` elements are checked: tool calls, and agent replies (raw model output, spec section 6). */
export function toolCells(doc: MessageDocument): Cell[] {
  return doc.cells.filter((c) => isToolCellType(c.cellType));
}

// How tool calls and results hang together (spec section 4): a tool call
// `PARENT.NONCE` answers the agent reply PARENT, a result `PARENT.NONCE.N`
// answers the call `PARENT.NONCE`. Computed once per document.

import { Cell, type CellKind, type MessageDocument } from '../syntax/document.js';
import { Memo } from '../base/memo.js';
import { replacedSegments, versionValue, type VersionMaker } from '../syntax/tree/message-document.js';
import { PersistentMap, type WritableMap } from '../base/persistent-map.js';
import { ListMap, listWriter, type Packed } from '../base/list-map.js';

// Read from the id string, not from IdRef.segments: those are kept once made, and
// every tool cell would keep its id's segments and their spans (most are never reported).
const CALL_ID = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;
const RESULT_ID = /^(([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

/** A tool call cell with a well-formed two-segment id. */
export class CallRef {
  readonly id: string;
  constructor(
    readonly cell: Cell,
    readonly parent: string,
    readonly nonce: string,
  ) {
    this.id = cell.id!;
  }
  /** Offsets in a version of the PARENT segment in the marker. */
  parentAt(doc: MessageDocument): [number, number] {
    return doc.abs(this.cell, this.cell.marker.idRef!.segments[0]!.span);
  }
  /** Offsets in a version of the NONCE segment. */
  nonceAt(doc: MessageDocument): [number, number] {
    return doc.abs(this.cell, this.cell.marker.idRef!.segments[1]!.span);
  }
}

/** A tool result cell with a well-formed three-segment id. */
export class ResultRef {
  /** `PARENT.NONCE` */
  constructor(
    readonly cell: Cell,
    readonly callId: string,
    readonly n: string,
  ) {}
  /** Offsets in a version of `PARENT.NONCE` in the marker. */
  callAt(doc: MessageDocument): [number, number] {
    const segs = this.cell.marker.idRef!.segments;
    return doc.abs(this.cell, { start: segs[0]!.span.start, end: segs[1]!.span.end });
  }
  /** Offsets in a version of N. */
  nAt(doc: MessageDocument): [number, number] {
    return doc.abs(this.cell, this.cell.marker.idRef!.segments[2]!.span);
  }
}

export interface ToolGraph {
  /** Tool call cells with a well-formed two-segment id, in file order. */
  readonly calls: readonly CallRef[];
  /** Tool result cells with a well-formed three-segment id, in file order. */
  readonly results: readonly ResultRef[];
  /** Calls by id (several when the id is repeated), in file order. */
  readonly callsById: ListMap<string, CallRef>;
  /** Results by `PARENT.NONCE`, in file order. */
  readonly resultsByCall: ListMap<string, ResultRef>;
  /** Calls by nonce, in file order. */
  readonly callsByNonce: ListMap<string, CallRef>;
  /** The nonces of more than one call (nonce-reused reads only these, not every call), as keys. */
  readonly reusedNonces: ReadonlyMap<string, true>;
  /** The calls with no result after them (tool-call-unanswered reads only these), by their cell's key. */
  readonly unanswered: ReadonlyMap<number, CallRef>;
}

/** A graph being made: whole, in Maps, or from the previous version's, in copies that share what they do not change. */
interface GraphEdit {
  calls: readonly CallRef[];
  results: readonly ResultRef[];
  callsById: WritableMap<string, readonly CallRef[]>;
  resultsByCall: WritableMap<string, readonly ResultRef[]>;
  callsByNonce: WritableMap<string, readonly CallRef[]>;
  reusedNonces: WritableMap<string, true>;
  unanswered: WritableMap<number, CallRef>;
}

const graphs = new Memo<MessageDocument, ToolGraph>('document');
// A graph holds cells, never a version: the next version's is made from it.
const graphMaker: VersionMaker<ToolGraph, ToolGraph> = { carry: (g) => g, updated, whole };

/** The tool graph of a version: the previous version's updated for the cells an edit replaced or reclassified, or made whole. */
export function toolGraph(doc: MessageDocument): ToolGraph {
  return versionValue(graphs, doc, graphMaker);
}

function whole(doc: MessageDocument): ToolGraph {
  const callsById = new Map<string, Packed<CallRef>>();
  const resultsByCall = new Map<string, Packed<ResultRef>>();
  const callsByNonce = new Map<string, Packed<CallRef>>();
  const g = {
    calls: [] as CallRef[],
    results: [] as ResultRef[],
    callsById: listWriter(callsById),
    resultsByCall: listWriter(resultsByCall),
    callsByNonce: listWriter(callsByNonce),
    reusedNonces: new Map<string, true>(),
    unanswered: new Map<number, CallRef>(),
  };
  for (const cell of doc.cells) add(doc, g, cell, false);
  for (const call of g.calls) if (!answered(doc, g, call)) g.unanswered.set(call.cell.key, call);
  return { ...g, callsById: new ListMap(callsById), resultsByCall: new ListMap(resultsByCall), callsByNonce: new ListMap(callsByNonce) };
}

/** The ref of a cell, when it is a tool call or result with a well-formed id of its shape. */
function refOf(doc: MessageDocument, cell: Cell): CallRef | ResultRef | undefined {
  const kind = doc.kindOf(cell);
  if (kind !== 'tool-call' && kind !== 'tool-result') return undefined;
  const id = cell.id;
  if (id === undefined) return undefined;
  if (kind === 'tool-call') {
    const m = CALL_ID.exec(id);
    return m ? new CallRef(cell, m[1]!, m[2]!) : undefined;
  }
  const m = RESULT_ID.exec(id);
  return m ? new ResultRef(cell, m[1]!, m[3]!) : undefined;
}

/** Adds a cell's ref; `inPlace`: where it goes in file order (else at the end). */
function add(doc: MessageDocument, g: GraphEdit, cell: Cell, inPlace: boolean): void {
  const ref = refOf(doc, cell);
  if (ref instanceof CallRef) {
    g.calls = inserted(g.calls, ref, inPlace);
    g.callsById.set(ref.id, inserted(g.callsById.get(ref.id), ref, inPlace));
    const same = inserted(g.callsByNonce.get(ref.nonce), ref, inPlace);
    g.callsByNonce.set(ref.nonce, same);
    if (same.length > 1) g.reusedNonces.set(ref.nonce, true);
  } else if (ref instanceof ResultRef) {
    g.results = inserted(g.results, ref, inPlace);
    g.resultsByCall.set(ref.callId, inserted(g.resultsByCall.get(ref.callId), ref, inPlace));
  }
}

/**
 * A list with an item added: a new list when it goes in place (the list may
 * be the previous version's), else the list itself grown (made whole, a
 * graph's lists are its own until it is done).
 */
function inserted<T extends { cell: Cell }>(list: readonly T[] | undefined, item: T, inPlace: boolean): readonly T[] {
  if (!list) return [item];
  if (!inPlace) {
    (list as T[]).push(item);
    return list;
  }
  return list.toSpliced(firstFrom(list, item.cell.key), 0, item);
}

/** Whether a result of the call comes after it. */
function answered(doc: MessageDocument, g: GraphEdit, call: CallRef): boolean {
  const at = doc.indexOf(call.cell);
  for (const r of g.resultsByCall.get(call.id) ?? []) if (doc.indexOf(r.cell) > at) return true;
  return false;
}

/** The first ref in `list` (in file order) whose cell's key is at least `key` (Cell.key orders the cells of every version). */
function firstFrom<T extends { cell: Cell }>(list: readonly T[], key: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.cell.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A list in file order without the refs of the cells that left the graph
 * (the list itself when it has none): those of the replaced cells sit
 * together from the first replaced cell's key on (the cells before have
 * smaller keys), and then the refreshed cells', found by key. No walk over
 * every call.
 */
function withoutRefs<T extends { cell: Cell }>(list: readonly T[], replaced: ReadonlySet<Cell>, firstKey: number, refreshed: readonly Cell[]): readonly T[] {
  const from = firstFrom(list, firstKey);
  let to = from;
  while (to < list.length && replaced.has(list[to]!.cell)) to++;
  let out = to > from ? list.toSpliced(from, to - from) : list;
  for (const c of refreshed) {
    const i = firstFrom(out, c.key);
    if (out[i]?.cell === c) out = out.toSpliced(i, 1);
  }
  return out;
}

/**
 * The previous version's graph with the refs of the cells the edit replaced
 * (DocumentEdit.replaced) or whose kind it made again
 * (ReplacedCells.refreshed) taken out and put back. A copy: the lists of
 * calls and results are copied when they change (a few thousand refs), the
 * maps share what the edit does not touch (PersistentMap).
 */
function updated(doc: MessageDocument, g: ToolGraph): ToolGraph {
  const replaced = replacedSegments(doc);
  const replacedCells = new Set<Cell>(replaced.gone);
  const refreshed = doc.edit!.replaced.refreshed.filter((s) => s instanceof Cell);
  const gone = new Set<Cell>([...replacedCells, ...refreshed]);
  const come = replaced.come.concat(refreshed);
  if (gone.size === 0 && come.length === 0) return g;
  const packed = {
    callsById: PersistentMap.of(g.callsById.packed).edit(),
    resultsByCall: PersistentMap.of(g.resultsByCall.packed).edit(),
    callsByNonce: PersistentMap.of(g.callsByNonce.packed).edit(),
  };
  const out = {
    calls: g.calls,
    results: g.results,
    callsById: listWriter(packed.callsById),
    resultsByCall: listWriter(packed.resultsByCall),
    callsByNonce: listWriter(packed.callsByNonce),
    reusedNonces: PersistentMap.of(g.reusedNonces).edit(),
    unanswered: PersistentMap.of(g.unanswered).edit(),
  };
  // The replaced cells' refs sit together in each list, from the first replaced cell's key on.
  const firstKey = replaced.gone[0]?.key ?? Infinity;
  out.calls = withoutRefs(out.calls, replacedCells, firstKey, refreshed);
  out.results = withoutRefs(out.results, replacedCells, firstKey, refreshed);
  // The calls whose answer may change: of the ids of the calls and results that come and go.
  const touched = new Set<string>();
  for (const c of [...gone, ...come]) {
    const ref = c.marker.idRef;
    if (ref && ref.segments.length >= 2) touched.add(`${ref.segments[0]!.text}.${ref.segments[1]!.text}`);
  }
  for (const id of touched) for (const call of out.callsById.get(id) ?? []) out.unanswered.delete(call.cell.key);
  for (const map of [out.callsById, out.resultsByCall] as WritableMap<string, readonly { cell: Cell }[]>[]) {
    for (const c of gone) {
      const ref = c.marker.idRef;
      if (!ref) continue;
      const key = ref.segments.length === 3 ? `${ref.segments[0]!.text}.${ref.segments[1]!.text}` : ref.id;
      const list = map.get(key);
      if (!list) continue;
      const kept = list.filter((r) => !gone.has(r.cell));
      if (kept.length) map.set(key, kept);
      else map.delete(key);
    }
  }
  for (const c of gone) {
    const nonce = c.marker.idRef?.segments[1]?.text;
    const list = nonce !== undefined ? out.callsByNonce.get(nonce) : undefined;
    if (!list) continue;
    const kept = list.filter((r) => !gone.has(r.cell));
    if (kept.length) out.callsByNonce.set(nonce!, kept);
    else out.callsByNonce.delete(nonce!);
    if (kept.length < 2) out.reusedNonces.delete(nonce!);
  }
  for (const c of come) add(doc, out, c, true);
  for (const id of touched) for (const call of out.callsById.get(id) ?? []) if (!answered(doc, out, call)) out.unanswered.set(call.cell.key, call);
  return {
    calls: out.calls,
    results: out.results,
    callsById: new ListMap(packed.callsById.done()),
    resultsByCall: new ListMap(packed.resultsByCall.done()),
    callsByNonce: new ListMap(packed.callsByNonce.done()),
    reusedNonces: out.reusedNonces.done(),
    unanswered: out.unanswered.done(),
  };
}

export function isToolCellType(t: CellKind): boolean {
  return t === 'tool-call' || t === 'agent-reply';
}

/** Cells whose `<tool>` elements are checked: tool calls, and agent replies (raw model output, spec section 6). */
export function toolCells(doc: MessageDocument): Cell[] {
  return doc.cells.filter((c) => isToolCellType(doc.kindOf(c)));
}

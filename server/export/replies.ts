// A reply and its tool call cells (`PARENT.NONCE` answers the reply PARENT):
// the agent of a call, and the raw `<tool>` elements of a reply that its call
// cells record (view.ts sends those as the structured calls, not as text).

import type { Cell, MessageDocument } from '../syntax/document.js';
import { readToolCalls, toolGraph } from '../tool-calls/index.js';

export type RecordedCalls = Map<string, { server: string; name: string }[]>;

/** The agent of a tool call `PARENT.NONCE`: the type of its PARENT reply, else the default agent there. */
export function parentAgent(doc: MessageDocument, callId: string): string | undefined {
  const parentId = callId.slice(0, Math.max(0, callId.lastIndexOf('.')));
  const cells = doc.cellsById.get(callId);
  const parent = doc.cellsById.get(parentId)?.find((c) => {
    const kind = doc.kindOf(c);
    return c.isOutput && kind !== 'tool-call' && kind !== 'tool-result';
  });
  if (parent) return doc.typeOf(parent) ?? doc.defaultAgentAt(doc.offsetOf(parent));
  return cells?.[0] ? doc.defaultAgentAt(doc.offsetOf(cells[0])) : undefined;
}

/** The tool call cells of each reply (PARENT), with the server and tool name each one records. */
export function recordedCalls(doc: MessageDocument): RecordedCalls {
  const out = new Map<string, { server: string; name: string }[]>();
  for (const ref of toolGraph(doc).calls) {
    const info = readToolCalls(ref.cell)[0];
    const name = info?.toolName ?? doc.attrOf(ref.cell, 'name');
    if (name === undefined) continue;
    let list = out.get(ref.parent);
    if (!list) out.set(ref.parent, (list = []));
    list.push({ server: info?.server ?? 'local', name });
  }
  return out;
}

/**
 * The spans (cell-relative) of a reply's `<tool>` elements that its tool call
 * cells record: the k-th element of a (server, name) matches the k-th call
 * cell of that server and name. Elements without such a cell stay text.
 */
export function recordedElements(cell: Cell, recorded: RecordedCalls): [number, number][] {
  const tools = readToolCalls(cell);
  const cells = cell.id !== undefined ? recorded.get(cell.id) : undefined;
  if (!tools.length || !cells) return [];
  const left = [...cells];
  const spans: [number, number][] = [];
  for (const t of tools) {
    if (t.toolName === undefined) continue;
    const k = left.findIndex((c) => c.name === t.toolName && c.server === t.server);
    if (k === -1) continue;
    left.splice(k, 1);
    spans.push([t.element.start, t.element.end]);
  }
  return spans;
}

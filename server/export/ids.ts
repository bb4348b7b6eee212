// Tool call ids as the providers take them. A cell id (`PARENT.NONCE`) is
// the call's id in the file; OpenAI rejects ids over 40 characters and
// Anthropic ids outside ^[a-zA-Z0-9_-]+$. Each target maps the ids of a
// view once, so a call and its result always get the same id:
// - characters outside the allowed set become `_` (when the target needs it);
// - an id still too long keeps its first characters and ends with `_` and 8
//   hex digits of a hash of the whole id (`reading-the-configuration-fi_3f1c09ab`);
// - an id that would equal one already given gets `_2`, `_3`, … (shortened
//   to fit).
// The result depends only on the ids in file order: the same file gives the
// same ids on every export.
//
// A call's `call_id` (spec section 9, point 6), the id the model or provider
// gave it, is sent as it is when the target takes it (its characters and
// length) and no other call of the view has the same `call_id`; the ids
// made from cell ids then avoid it. Otherwise, and without one, the id is
// made from the cell id as above. The call's results carry the same id.

import { shortHash } from '../base/hash.js';
import type { InternalMessage } from './model.js';

export { shortHash };

export interface IdRules {
  /** Only `A-Z a-z 0-9 _ -`. */
  safe: boolean;
  /** The longest id the target takes. */
  max?: number;
}

/** The id each call of the history is sent with, by its id in the view. */
export function toolCallIds(history: Readonly<InternalMessage[]>, rules: IdRules): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  // call_ids first, so that an id made from a cell id never takes one.
  const callIds = new Map<string, number>();
  for (const m of history) for (const c of m.toolCalls ?? []) if (c.callId !== undefined) callIds.set(c.callId, (callIds.get(c.callId) ?? 0) + 1);
  for (const m of history) {
    for (const c of m.toolCalls ?? []) {
      if (ids.has(c.id) || c.callId === undefined || callIds.get(c.callId) !== 1 || !acceptsId(c.callId, rules)) continue;
      used.add(c.callId);
      ids.set(c.id, c.callId);
    }
  }
  for (const m of history) {
    for (const c of m.toolCalls ?? []) {
      if (ids.has(c.id)) continue;
      let base = rules.safe ? c.id.replace(/[^A-Za-z0-9_-]/g, '_') : c.id;
      if (base === '') base = 'call';
      if (rules.max !== undefined && base.length > rules.max) base = `${base.slice(0, rules.max - 9)}_${shortHash(c.id)}`;
      let id = base;
      for (let n = 2; used.has(id); n++) {
        const suffix = `_${n}`;
        id = rules.max !== undefined && base.length + suffix.length > rules.max ? base.slice(0, rules.max - suffix.length) + suffix : base + suffix;
      }
      used.add(id);
      ids.set(c.id, id);
    }
  }
  return ids;
}

/** Whether the target takes `id` as it is. */
export function acceptsId(id: string, rules: IdRules): boolean {
  if (id === '') return false;
  if (rules.safe && !/^[A-Za-z0-9_-]+$/.test(id)) return false;
  return rules.max === undefined || id.length <= rules.max;
}


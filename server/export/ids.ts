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

import type { InternalMessage } from './model.js';

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

/** 8 hex digits of the 32-bit FNV-1a hash of a string's UTF-16 code units: short, stable, not cryptographic. */
export function shortHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

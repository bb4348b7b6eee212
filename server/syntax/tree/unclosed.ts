// The first segment whose parse leaves something unclosed (a fence, a
// comment, a CDATA section): text added after it could close it, which
// re-splits the file from there on, so the edit path asks for it.

import { Memo } from '../../base/memo.js';
import type { MessageDocument } from './message-document.js';
import type { Segment } from './segment.js';

const unclosed = new Memo<MessageDocument, number>('document');

/** The index of the first segment whose parse leaves something unclosed (the segment count when none does). */
export function firstUnclosed(doc: MessageDocument): number {
  let i = unclosed.get(doc);
  if (i === undefined) {
    i = 0;
    for (const list = doc.segments; i < list.length && !list[i]!.parse?.hasUnclosed; i++);
    unclosed.set(doc, i);
  }
  return i;
}

/** Records what firstUnclosed would find, for a version whose segments were just walked. */
export function setFirstUnclosed(doc: MessageDocument, index: number): void {
  unclosed.set(doc, index);
}

/**
 * For a version made from `prev` by replacing its segments [at, at + removed)
 * with `added` ones (parseAcross): the first segment left
 * unclosed, when it follows from `prev`'s (found lazily otherwise).
 */
export function keepFirstUnclosed(doc: MessageDocument, prev: MessageDocument, at = 0, removed = 0, added: readonly Segment[] = []): void {
  const i = unclosed.get(prev);
  if (i !== undefined && i < at) return void unclosed.set(doc, i);
  const k = added.findIndex((s) => s.parse?.hasUnclosed);
  if (k !== -1) return void unclosed.set(doc, at + k);
  if (i === undefined || i < at + removed) return;
  unclosed.set(doc, i + added.length - removed);
}

// The segments that hold disable comments, per version. A keystroke should
// not look at every segment to learn that a file has none: a version that
// keeps the previous one's segments (DocumentEdit.keepsCells) takes the
// previous list, updated for the segments the edit replaced.

import type { MessageDocument } from './message-document.js';
import { Memo } from './memo.js';
import type { Segment } from './segment.js';

const holders = new Memo<MessageDocument, Segment[]>();

/** The segments whose parse holds disable comments (directives), in file order. */
export function segmentsWithDirectives(doc: MessageDocument): readonly Segment[] {
  let list = holders.get(doc);
  if (list) return list;
  const edit = doc.edit;
  const before = edit?.keepsCells && edit.previous ? holders.get(edit.previous) : undefined;
  list = before ? updated(doc, before) : doc.segments.filter(holds);
  holders.set(doc, list);
  return list;
}

function holds(seg: Segment): boolean {
  return seg.parse !== undefined && seg.parse.directives.length > 0;
}

/** The previous version's holders without the segments the edit replaced, with the new ones that hold some. */
function updated(doc: MessageDocument, before: Segment[]): Segment[] {
  const edit = doc.edit!;
  const prev = edit.previous!;
  const gone = new Set<Segment>();
  const come: Segment[] = [];
  if (edit.replaced) {
    const { at, removed, added } = edit.replaced;
    for (let i = at; i < at + removed; i++) gone.add(prev.segments[i]!);
    for (let i = at; i < at + added; i++) come.push(doc.segments[i]!);
  } else {
    for (const i of edit.changed) {
      gone.add(prev.segments[i]!);
      come.push(doc.segments[i]!);
    }
  }
  const list = before.filter((s) => !gone.has(s));
  const added = come.filter(holds);
  if (added.length === 0) return list;
  return list.concat(added).sort((a, b) => a.offset - b.offset);
}

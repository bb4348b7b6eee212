// The language server's document text after a didChange notification:
// applyChanges over the server's own text (EditableText, a rope; one pass
// for a batch of changes sent from the end of the document backwards, as
// clients send multi-cursor edits) must give exactly the text
// the library's TextDocument gives for each change made in turn, for any
// batch: ordered or not, overlapping, touching, with positions past a
// line's end or the document's, across CR, LF and CRLF line breaks. The
// reference reads each change's positions in a TextDocument made from the
// text so far: TextDocument.update itself miscounts the lines after a
// change whose range goes past the last line, and reads the next change's
// positions in the wrong place.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { applyChanges } from '../../server/lsp/documents.js';
import { EditableText } from '../../server/lsp/text.js';
import { runs } from './gen.js';

const text = fc.array(fc.constantFrom('a', 'b', ' ', '\n', '\r\n', '\r', 'é', '\ud83d\ude00', '# %%', '\n\n'), { maxLength: 60 }).map((a) => a.join(''));
const insert = fc.array(fc.constantFrom('', 'x', '\n', '\r', '\r\n', 'yz', '\ud83d'), { maxLength: 3 }).map((a) => a.join(''));

/** The text after each change made in turn, its positions read in the text so far (see above). */
function reference(t: string, changes: readonly TextDocumentContentChangeEvent[]): string {
  for (const change of changes) {
    if (!('range' in change)) {
      t = change.text;
      continue;
    }
    const doc = TextDocument.create('file:///reference', 'markdown', 1, t);
    const { start, end } = change.range;
    const ordered = start.line < end.line || (start.line === end.line && start.character <= end.character);
    const [from, to] = ordered ? [start, end] : [end, start];
    t = t.slice(0, doc.offsetAt(from)) + change.text + t.slice(doc.offsetAt(to));
  }
  return t;
}

describe('applyChanges gives the text of the changes made in turn', () => {
  it('for batches ordered from the end backwards (the one-pass case)', () => {
    fc.assert(
      fc.property(text, fc.array(fc.tuple(fc.nat(), fc.nat({ max: 4 }), insert), { minLength: 8, maxLength: 30 }), (t, edits) => {
        const doc = TextDocument.create('file:///a.msg.md', 'markdown', 1, t);
        // Distinct, descending, non-overlapping offsets, as positions of the current text.
        let limit = t.length;
        const changes = [];
        for (const [a, del, ins] of edits.map(([a, d, i]) => [a % (t.length + 1), d, i] as const).sort((x, y) => y[0] - x[0])) {
          if (a > limit) continue;
          const end = Math.min(limit, a + del);
          changes.push({ range: { start: doc.positionAt(a), end: doc.positionAt(end) }, text: ins });
          limit = a;
        }
        expect(applyChanges(new EditableText('file:///a.msg.md', 'markdown', 1, t), changes, 2).getText()).toBe(reference(t, changes));
      }),
      { numRuns: runs(1000) },
    );
  });

  it('for any batch of changes', () => {
    const position = fc.record({ line: fc.integer({ min: -1, max: 12 }), character: fc.integer({ min: -1, max: 12 }) });
    fc.assert(
      fc.property(text, fc.array(fc.record({ range: fc.record({ start: position, end: position }), text: insert }), { maxLength: 20 }), (t, changes) => {
        const a = applyChanges(new EditableText('file:///a.msg.md', 'markdown', 1, t), changes, 2);
        const b = reference(t, changes);
        expect(a.getText()).toBe(b);
        expect(a.version).toBe(2);
        expect(a.lineCount).toBe(b.split(/\r\n|\r|\n/).length);
        expect(a.positionAt(b.length)).toEqual(TextDocument.create('file:///b', 'markdown', 1, b).positionAt(b.length));
      }),
      { numRuns: runs(1000) },
    );
  });
});

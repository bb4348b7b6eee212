// The language server's document text after a didChange notification:
// applyChanges (one pass for a batch of changes sent from the end of the
// document backwards, as clients send multi-cursor edits) must give exactly
// what TextDocument.update gives (one change at a time), for any batch:
// ordered or not, overlapping, touching, with positions past a line's end or
// the document's, across CR, LF and CRLF line breaks.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { applyChanges } from '../../server/lsp/documents.js';
import { runs } from './gen.js';

const text = fc.array(fc.constantFrom('a', 'b', ' ', '\n', '\r\n', '\r', 'é', '\ud83d\ude00', '# %%', '\n\n'), { maxLength: 60 }).map((a) => a.join(''));
const insert = fc.array(fc.constantFrom('', 'x', '\n', '\r', '\r\n', 'yz', '\ud83d'), { maxLength: 3 }).map((a) => a.join(''));

describe('applyChanges equals TextDocument.update', () => {
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
        expect(applyChanges(doc, changes, 2).getText()).toBe(TextDocument.update(TextDocument.create('file:///a.msg.md', 'markdown', 1, t), changes, 2).getText());
      }),
      { numRuns: runs(1000) },
    );
  });

  it('for any batch of changes', () => {
    const position = fc.record({ line: fc.integer({ min: -1, max: 12 }), character: fc.integer({ min: -1, max: 12 }) });
    fc.assert(
      fc.property(text, fc.array(fc.record({ range: fc.record({ start: position, end: position }), text: insert }), { maxLength: 20 }), (t, changes) => {
        const a = applyChanges(TextDocument.create('file:///a.msg.md', 'markdown', 1, t), changes, 2);
        const b = TextDocument.update(TextDocument.create('file:///a.msg.md', 'markdown', 1, t), changes, 2);
        expect(a.getText()).toBe(b.getText());
        expect(a.version).toBe(2);
        expect(a.lineCount).toBe(b.lineCount);
      }),
      { numRuns: runs(1000) },
    );
  });
});

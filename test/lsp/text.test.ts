// EditableText keeps the client's text without copying it per keystroke; it
// must give exactly the text of the reference TextDocument of
// vscode-languageserver-textdocument after any changes, and the positions
// and offsets of a TextDocument made from that text.
import fc from 'fast-check';
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { describe, expect, it } from 'vitest';
import { EditableText } from '../../server/lsp/text.js';

const piece = fc.constantFrom('a', 'bc', ' ', '\n', '\r\n', '\r', 'é', '😀', 'line\n', '');
const text = fc.array(piece, { maxLength: 30 }).map((a) => a.join(''));
const position = fc.record({ line: fc.integer({ min: -1, max: 12 }), character: fc.integer({ min: -1, max: 12 }) });
const change: fc.Arbitrary<TextDocumentContentChangeEvent> = fc.oneof(
  { weight: 9, arbitrary: fc.record({ range: fc.record({ start: position, end: position }), text }) },
  { weight: 1, arbitrary: fc.record({ text }) },
);

// The reference is made anew for each comparison: its own incremental line
// starts go wrong after a range past the end (a blank document given "\n"
// at line 3 counts 4 lines), where ours stay right.
function same(ours: EditableText, ref: TextDocument): void {
  // Line starts and ranges first, read from the pieces (getText() would make the whole string).
  expect(ours.lineCount).toBe(ref.lineCount);
  for (let line = 0; line <= ref.lineCount; line++) {
    const range = { start: { line, character: 1 }, end: { line: line + 1, character: 2 } };
    expect(ours.getText(range)).toBe(ref.getText(range));
    const backwards = { start: range.end, end: range.start };
    expect(ours.getText(backwards)).toBe(ref.getText(backwards));
  }
  expect(ours.getText()).toBe(ref.getText());
  const length = ref.getText().length;
  for (let o = -1; o <= length + 1; o++) expect(ours.positionAt(o)).toEqual(ref.positionAt(o));
  for (let line = -1; line <= ref.lineCount + 1; line++) {
    for (let character = -1; character <= 8; character++) expect(ours.offsetAt({ line, character })).toBe(ref.offsetAt({ line, character }));
    const refDoc = ref as unknown as { getLineRange(l: number): unknown; getEOLCharacters(l: number): string };
    expect(ours.getLineRange(line)).toEqual(refDoc.getLineRange(line));
    expect(ours.getEOLCharacters(line)).toBe(refDoc.getEOLCharacters(line));
  }
}

describe('EditableText', () => {
  it('matches TextDocument after any sequence of changes', () => {
    fc.assert(
      fc.property(text, fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { maxLength: 8 }), fc.boolean(), fc.constantFrom(1, 3, 7, 40, 65536), (initial, batches, readEarly, chunkSize) => {
        // Small chunks cross chunk edges often (the window, folds, CRLF split between pieces).
        const ours = new EditableText('file:///a.msg.md', 'markdown', 1, initial, chunkSize);
        // Line starts computed before the changes take the incremental path, after them the full count.
        if (readEarly) ours.positionAt(0);
        let expected = initial;
        let version = 1;
        for (const batch of batches) {
          version++;
          ours.update(batch, version);
          // Each change applied to a fresh reference, whose line starts are right.
          for (const c of batch) {
            const ref = TextDocument.create('file:///a.msg.md', 'markdown', version, expected);
            TextDocument.update(ref, [c], version);
            expected = ref.getText();
          }
          expect(ours.version).toBe(version);
          same(ours, TextDocument.create('file:///a.msg.md', 'markdown', version, expected));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('keeps the text when deletions here and there fold small windows into small chunks', () => {
    let expected = 'abcdefg\n'.repeat(12);
    const ours = new EditableText('file:///a.msg.md', 'markdown', 1, expected, 8);
    for (let i = 0; i < 60 && expected.length > 2; i++) {
      // Each deletion away from the last: the window is folded into the chunks every time.
      const at = (i * 37) % (expected.length - 1);
      const ref = TextDocument.create('file:///a.msg.md', 'markdown', i + 1, expected);
      const range = { start: ref.positionAt(at), end: ref.positionAt(at + 1 + (i % 3)) };
      ours.update([{ range, text: i % 5 === 0 ? 'XY' : '' }], i + 2);
      TextDocument.update(ref, [{ range, text: i % 5 === 0 ? 'XY' : '' }], i + 2);
      expected = ref.getText();
      expect(ours.lineCount).toBe(TextDocument.create('file:///a.msg.md', 'markdown', 1, expected).lineCount);
      expect(ours.getText()).toBe(expected);
    }
  });

  it('reports each change as offsets of the text it applied to', () => {
    const doc = new EditableText('file:///a.msg.md', 'markdown', 1, 'one\ntwo\n');
    const applied = doc.update(
      [
        { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 3 } }, text: 'TWO' },
        { range: { start: { line: 0, character: 3 }, end: { line: 0, character: 3 } }, text: '!' },
        { text: 'all new' },
      ],
      2,
    );
    expect(applied).toEqual([{ start: 4, end: 7, text: 'TWO' }, { start: 3, end: 3, text: '!' }, undefined]);
    expect(doc.getText()).toBe('all new');
  });

  it('types a thousand characters into a long text without flattening it', () => {
    const long = 'word '.repeat(200_000) + '\n';
    const doc = new EditableText('file:///a.msg.md', 'markdown', 1, long);
    doc.positionAt(0);
    for (let i = 0; i < 1000; i++) doc.update([{ range: { start: { line: 0, character: 500 + i }, end: { line: 0, character: 500 + i } }, text: 'x' }], i + 2);
    expect(doc.getText()).toBe(long.slice(0, 500) + 'x'.repeat(1000) + long.slice(500));
    expect(doc.positionAt(long.length + 1000)).toEqual({ line: 1, character: 0 });
  });
});

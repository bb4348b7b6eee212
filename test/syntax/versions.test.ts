// A version is a value: parsing (and linting) a later version never changes
// an earlier one. A program may keep every version (an undo stack, a diff,
// two views of one file); each keeps answering for its own text, tree and
// diagnostics, as a fresh parse of that text does.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMetadataLine } from '../../server/syntax/document.js';
import { Cell, parse, type MessageDocument } from '../../server/index.js';
import { lintDocument } from '../../server/index.js';

const example = readFileSync(fileURLToPath(new URL('../../examples/coding-session.msg.md', import.meta.url)), 'utf8');

/** What a program reads of a version: its tree, the file-wide facts and its diagnostics. */
function snapshot(doc: MessageDocument): unknown {
  return {
    text: doc.text,
    // Only a cell has an index (undefined for the other segments).
    segments: doc.segments.map((s) => [s.kind, doc.offsetOf(s), doc.endOf(s), s instanceof Cell ? doc.indexOf(s) : undefined, s.text]),
    cells: doc.cells.map((c) => {
      const m = doc.metadataOf(c);
      return [doc.indexOf(c), doc.offsetOf(c), c.id, doc.kindOf(c), doc.typeOf(c), doc.idFits(c), doc.kindKnown(c), m && doc.abs(m.segment, m.node.span)];
    }),
    at: doc.cells.map((c) => {
      const found = doc.cellAt(doc.offsetOf(c));
      return found && doc.offsetOf(found);
    }),
    metadata: doc.metadata.map((m) => [doc.offsetOf(m.segment), doc.abs(m.segment, m.node.span), m.node.id.id, isMetadataLine(doc, m)]),
    byId: [...doc.cellsById].map(([id, cells]) => [id, cells.map((c) => doc.offsetOf(c))]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    agents: doc.agents.map((a) => [a.name, a.source, a.at, a.from]),
    languages: [...doc.codeLanguages].sort(),
    lines: [doc.lines.lineCount, doc.range(0, doc.text.length)],
    diagnostics: lintDocument(doc).map((d) => [d.ruleId, d.range.start.offset, d.range.end.offset, d.message]),
  };
}

const pieces = ['```\n', '~~~\n', '<!--', '-->', '<![CDATA[', ']]>', '<tool>', '</tool>', '# %% [^9]\n', '# %%% [^2.abcd]\n', '\n', 'x', '#', '%', '[^1]: [markdown]\n', '[^2]', '\r\n', '---\n', 'status="error"', ' summary="', '"'];
const edit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  del: fc.oneof(fc.constantFrom(0, 1), fc.integer({ min: 0, max: 60 })),
  ins: fc.array(fc.constantFrom(...pieces), { maxLength: 3 }).map((a) => a.join('')),
});

describe('a version is a value', () => {
  for (const withHint of [false, true]) {
    it(`every kept version still equals a fresh parse of its own text (${withHint ? 'with' : 'without'} the edit's range)`, () => {
      fc.assert(
        fc.property(fc.array(edit, { minLength: 1, maxLength: 8 }), (edits) => {
          let text = example;
          const versions: { doc: MessageDocument; expected: unknown }[] = [];
          let doc = parse(text, { fileName: 'a.msg.md' });
          versions.push({ doc, expected: snapshot(parse(text, { fileName: 'a.msg.md' })) });
          snapshot(doc);
          for (const e of edits) {
            const at = Math.floor(e.at * text.length);
            const oldEnd = Math.min(text.length, at + e.del);
            text = text.slice(0, at) + e.ins + text.slice(oldEnd);
            doc = parse(text, { fileName: 'a.msg.md', previous: doc, edit: withHint ? { start: at, oldEnd, text: e.ins } : undefined });
            versions.push({ doc, expected: snapshot(parse(text, { fileName: 'a.msg.md' })) });
            snapshot(doc);
          }
          for (const [i, v] of versions.entries()) expect(snapshot(v.doc), `version ${i}`).toEqual(v.expected);
        }),
        { numRuns: 150 },
      );
    });
  }

  it('parsing and linting a later version write nothing to an earlier one, not even what it carried from the one before', () => {
    const v1 = parse(example, { fileName: 'a.msg.md' });
    // In the prose of the second cell: the editor's path.
    const at = example.indexOf('# %%%') + 20;
    const t2 = example.slice(0, at) + 'x' + example.slice(at);
    // Linting a version writes nothing on it: what it carried from v1 stays.
    const v2 = parse(t2, { fileName: 'a.msg.md', previous: v1, edit: { start: at, oldEnd: at, text: 'x' } });
    // Its fields, but the indexes a version makes on first use (asking the previous version about agents makes its agent index).
    const CACHES = new Set(['agentsIndexed', 'lineIndex']);
    const own = (o: object): unknown[] => Object.entries(o).filter(([k]) => !CACHES.has(k)).map(([k, v]) => [k, v]);
    const before = { doc: own(v2), edit: own(v2.edit!), cells: v2.cells.map(own), segments: v2.segments.map(own) };
    const carriedBefore = v2.edit!.carried;
    const carriedCount = carriedBefore.size;
    const t3 = t2.slice(0, at) + t2.slice(at + 1);
    for (const edit of [{ start: at, oldEnd: at + 1, text: '' }, undefined]) {
      const v3 = parse(t3, { fileName: 'a.msg.md', previous: v2, edit });
      // Without the range, the whole path, which carries nothing.
      if (edit) expect(v3.edit!.carried).toBeInstanceOf(Map);
      else expect(v3.edit).toBeUndefined();
      lintDocument(v3);
      expect({ doc: own(v2), edit: own(v2.edit!), cells: v2.cells.map(own), segments: v2.segments.map(own) }).toEqual(before);
      expect(v2.edit!.carried).toBe(carriedBefore);
      expect(carriedBefore.size).toBe(carriedCount);
    }
  });
});

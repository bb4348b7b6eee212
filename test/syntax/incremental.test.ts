// A cell is parsed from its own text and its parse is cached by content, so
// re-parsing after an edit reuses every untouched cell.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as cellModule from '../../server/syntax/cell.js';
import { parse } from '../../server/syntax/document.js';

const example = readFileSync(fileURLToPath(new URL('../../examples/coding-session.msg.md', import.meta.url)), 'utf8');

function parsesDuring(fn: () => void): number {
  const before = cellModule.parseCellCalls;
  fn();
  return cellModule.parseCellCalls - before;
}

describe('incremental parsing', () => {
  it('re-parses only the edited cell', () => {
    const first = parse(example, { fileName: 'a.msg.md' });
    const cells = first.cells.length;
    expect(cells).toBeGreaterThan(5);
    const at = example.indexOf('Floor division');
    const edited = example.slice(0, at) + 'X' + example.slice(at);
    let second!: ReturnType<typeof parse>;
    const n = parsesDuring(() => {
      second = parse(edited, { fileName: 'a.msg.md', previous: first });
    });
    expect(n).toBe(1);
    expect(second.cells.length).toBe(cells);
    // The untouched cells are the very same parse objects.
    const same = second.cells.filter((c, i) => c.parse === first.cells[i]!.parse).length;
    expect(same).toBe(cells - 1);
  });

  it('gives the same tree as a fresh parse', () => {
    const first = parse(example, { fileName: 'a.msg.md' });
    const at = example.indexOf('# %% Check it');
    const edited = example.slice(0, at) + '# %% Inserted[^9]\n\n[^9]: [markdown]\n\nNew.\n\n' + example.slice(at);
    const incremental = parse(edited, { fileName: 'a.msg.md', previous: first });
    const fresh = parse(edited, { fileName: 'a.msg.md' });
    const shape = (d: typeof fresh) => d.cells.map((c) => [c.offset, c.id, c.cellType, c.type, c.text]);
    expect(shape(incremental)).toEqual(shape(fresh));
  });

  it('an edit that opens a fence re-splits the cells after it', () => {
    const first = parse(example, { fileName: 'a.msg.md' });
    const at = example.indexOf('Floor division');
    const edited = example.slice(0, at) + '~~~\n' + example.slice(at) + '~~~\n';
    const incremental = parse(edited, { fileName: 'a.msg.md', previous: first });
    const fresh = parse(edited, { fileName: 'a.msg.md' });
    expect(incremental.cells.map((c) => c.text)).toEqual(fresh.cells.map((c) => c.text));
    expect(fresh.cells.length).toBeLessThan(first.cells.length);
  });
});

import fc from 'fast-check';

describe('incremental parsing equals a fresh parse', () => {
  const pieces = ['```\n', '~~~\n', '````\n', '<!--', '-->', '<![CDATA[', ']]>', '<tool>', '</tool>', '# %% [^9]\n', '# %%% [^2.abcd]\n', '\n', 'x', '#', '%', '[^1]: [markdown]\n', '\r\n', '---\n'];
  const edit = fc.record({
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    del: fc.integer({ min: 0, max: 40 }),
    ins: fc.array(fc.constantFrom(...pieces), { maxLength: 4 }).map((a) => a.join('')),
  });
  it('after every edit of random edit sequences', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 8 }), (edits) => {
        let text = example;
        let doc = parse(text, { fileName: 'a.msg.md' });
        for (const e of edits) {
          const at = Math.floor(e.at * text.length);
          text = text.slice(0, at) + e.ins + text.slice(Math.min(text.length, at + e.del));
          doc = parse(text, { fileName: 'a.msg.md', previous: doc });
          const fresh = parse(text, { fileName: 'a.msg.md' });
          expect(doc.segments.map((s) => [s.kind, s.offset, s.text])).toEqual(fresh.segments.map((s) => [s.kind, s.offset, s.text]));
          expect(doc.cells.map((c) => [c.id, c.cellType, c.type])).toEqual(fresh.cells.map((c) => [c.id, c.cellType, c.type]));
        }
      }),
      { numRuns: 300 },
    );
  });
});

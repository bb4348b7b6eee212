// A cell holds only what is its own (its text, parse, marker and id): where
// it is and what the file-wide facts make it are the version's. The
// editor's path keeps the previous version's cells and gives the
// cells it adds keys (Cell.key) between their neighbours', so that a
// version finds a cell's index by its key.
import { describe, expect, it } from 'vitest';
import { parse, type MessageDocument } from '../../server/index.js';

/** Each cell's place and facts as the version says them. */
function cells(doc: MessageDocument): unknown[] {
  return doc.cells.map((c) => [doc.offsetOf(c), doc.indexOf(c), c.id, doc.kindOf(c), doc.idFits(c), doc.kindKnown(c), doc.metadataOf(c)?.node.id.id]);
}

/** Types `insert` at `at`, as the language server parses a keystroke. */
function type(doc: MessageDocument, at: number, insert: string, remove = 0): MessageDocument {
  const text = doc.text.slice(0, at) + insert + doc.text.slice(at + remove);
  return parse(text, { fileName: 'a.msg.md', previous: doc, edit: { start: at, oldEnd: at + remove, text: insert } });
}

function keysIncrease(doc: MessageDocument): boolean {
  return doc.cells.every((c, i) => i === 0 || doc.cells[i - 1]!.key < c.key);
}

describe('cells and their keys', () => {
  it('a cell carries no position and no file-wide fact of its own', () => {
    const doc = parse('# %% Q [^1]\nhi\n\n# %%% [^1.k7f3q]\n[^1.k7f3q]: [tool] name="f"\n', { fileName: 'a.msg.md' });
    for (const c of doc.cells) for (const name of ['offset', 'index', 'cellKind', 'metadata', 'idFits', 'kindKnown']) expect(Object.hasOwn(c, name)).toBe(false);
    expect(doc.kindOf(doc.cells[1]!)).toBe('tool-call');
    expect(doc.offsetOf(doc.cells[1]!)).toBe(16);
  });

  it('the editor path keeps the unchanged cells, orders every cell by key, and answers as a fresh parse', () => {
    const text = Array.from({ length: 30 }, (_, i) => `# %% Q${i} [^${i}]\ntext ${i}\n\n`).join('');
    let doc = parse(text, { fileName: 'a.msg.md' });
    const first = doc.cells[0]!;
    const last = doc.cells[29]!;
    // A letter, a new cell, a paste of three cells, a cell deleted.
    doc = type(doc, doc.text.indexOf('text 5') + 2, 'x');
    doc = type(doc, doc.text.indexOf('# %% Q9'), '# %% new\nnew\n\n');
    doc = type(doc, doc.text.indexOf('# %% Q20'), '# %% a\n\n# %% b\n\n# %%% [^2.k7f3q]\n');
    const q12 = doc.text.indexOf('# %% Q12');
    doc = type(doc, q12, '', doc.text.indexOf('# %% Q13') - q12);
    expect(doc.edit?.replaced).toBeDefined();
    expect(doc.cells[0]).toBe(first);
    expect(doc.cells.at(-1)).toBe(last);
    expect(keysIncrease(doc)).toBe(true);
    for (const [i, c] of doc.cells.entries()) expect(doc.indexOf(c)).toBe(i);
    expect(cells(doc)).toEqual(cells(parse(doc.text, { fileName: 'a.msg.md' })));
  });

  it('many cells added at one place: once two keys cannot be told apart, the whole path numbers the cells again', () => {
    // Keys near 1000: each cell added after cell 1000 halves the gap to the one added before it.
    let doc = parse(Array.from({ length: 2000 }, (_, i) => `# %% c${i}\n`).join(''), { fileName: 'a.msg.md' });
    let whole = 0;
    for (let n = 0; n < 80; n++) {
      doc = type(doc, doc.text.indexOf('# %% c1001\n'), `# %% n${n}\n`);
      if (!doc.edit?.replaced) whole++;
      expect(keysIncrease(doc)).toBe(true);
    }
    expect(whole).toBeGreaterThan(0);
    expect(cells(doc)).toEqual(cells(parse(doc.text, { fileName: 'a.msg.md' })));
  });

  it('a cell that a version does not have has no index there', () => {
    const v1 = parse('# %% A\na\n\n# %% B\nb\n', { fileName: 'a.msg.md' });
    const v2 = parse('# %% A\na\n\n# %% B\nbb\n', { fileName: 'a.msg.md', previous: v1 });
    expect(v2.indexOf(v1.cells[1]!)).toBe(-1);
    expect(v1.indexOf(v1.cells[1]!)).toBe(1);
  });
});

// The footnote references a cell's text makes (syntax/format/metadata.ts,
// footnoteReferences): on its marker's title and its lines below the marker
// line, not on the marker's own id, not inside fences, comments or CDATA
// (opaque lines), with LF or CRLF line breaks.
import { describe, expect, it } from 'vitest';
import { parseCell } from '../../server/syntax/format/cell.js';
import { footnoteReferences } from '../../server/syntax/tree/footnotes.js';

const refs = (text: string, marker = true) => [...footnoteReferences(parseCell(text, marker))].sort();

describe('footnoteReferences', () => {
  it('reads the lines below the marker line and the title, not the marker id', () => {
    expect(refs('# %% See[^a] too[^1]\n\nAs shown[^b] and[^c].\n')).toEqual(['a', 'b', 'c']);
    expect(refs('# %% Q[^1]')).toEqual([]);
  });

  it('skips opaque lines: fenced code, comments, CDATA', () => {
    const text = ['# %% Q[^1]', 'before[^a]', '```', 'x[^b]', '```', '<!--', 'c[^c]', '-->', '<tool>', '<![CDATA[', 'z[^z]', ']]>', '</tool>', 'after[^d]', ''].join('\n');
    expect(refs(text)).toEqual(['a', 'd']);
  });

  it('counts lines across CRLF breaks and reads a last line without one', () => {
    const text = ['# %% Q[^1]', '```', 'x[^b]', '```', 'y[^e]'].join('\r\n');
    expect(refs(text)).toEqual(['e']);
    expect(refs('no marker[^f]\r\nline[^g]', false)).toEqual(['f', 'g']);
  });

  it('skips a metadata line: its id is not a reference', () => {
    expect(refs('# %% Q[^1]\n\n[^1]: [markdown] see[^h]\n')).toEqual(['h']);
  });
});

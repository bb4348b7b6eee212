// A cell parse makes its lines on first use, walking the text with one
// moving object while it parses; both must give what splitLines gives, and
// placementStart must be the start of the line placementLine names.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCell } from '../../server/syntax/format/cell.js';
import { splitLines } from '../../server/syntax/format/lines.js';

const piece = fc.constantFrom(
  '# %% Q[^1]', '# %%% A[^2]', '[^1]: [markdown]', '[^2]: [python] time="2025-05-30T09:00:00Z"', '[^n]: a footnote',
  'Hello.', '', ' ', '\t', '```', '```python', '~~~', 'x = 1', '<!--', '-->', '<!-- c -->', '<tool>', '</tool>',
  '<![CDATA[', ']]>', 'é', '\r',
);
const text = fc
  .tuple(fc.array(piece, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, eol, last]) => lines.join(eol) + (last ? eol : ''));

function check(t: string, hasMarker: boolean): void {
  const p = parseCell(t, hasMarker);
  const lines = splitLines(t);
  expect(p.placementStart, JSON.stringify(t)).toBe(p.placementLine >= 0 ? lines[p.placementLine]!.start : -1);
  expect(p.lines).toEqual(lines);
  expect(p.lines).toBe(p.lines);
}

describe('cell parse lines', () => {
  it('are the text split into lines, and placementStart starts the placement line', () => {
    for (const t of ['', '\n', '# %% Q', '# %% Q\n', '# %% Q\r\n\r\nHi', '# %% Q\n\n<!-- c -->\n\nHi\n', 'a\rb\nc', '# %% Q\n```\n[^1]: [markdown]\n```\n']) {
      check(t, t.startsWith('#'));
    }
    fc.assert(
      fc.property(text, fc.boolean(), (t, marker) => check(marker ? `# %% Q\n${t}` : t, marker)),
      { numRuns: 2000 },
    );
  });
});

// findMarkers, the file scan of a message file, against the full scanner:
// the same markers for any text (fences, comments, CDATA in tool elements
// hide markers until they close; one that never closes hides nothing).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findMarkers, scan } from '../../server/syntax/scan.js';

function byScan(text: string, from = 0): number[] {
  return scan(text, from, text.length, { markers: true, headings: false, keepLines: false, leading: undefined, stopAtMarker: undefined }).markers.map((m) => m.line.start);
}

const PIECES = [
  '# %% A[^1]', '## %%% B[^1.x]', '#%%', '   # %%', '    # %%', '\t# %%', '# x', 'x # %%',
  '```', '~~~', '````py', '```x`', ' ```', '`code`', '`',
  '<!--', '-->', '<!-- c -->', '`<!--`',
  '<tool>', '</tool>', '<tool name="x">', '<tool/>', '<tool_name>', '<![CDATA[', ']]>',
  'x', ' ', '  ', '<', '#', '~',
] as const;
const BREAKS = ['\n', '\n', '\r\n', '\r', '\u2028', ''] as const;

describe('findMarkers', () => {
  it('finds what the full scanner finds (property)', () => {
    let withMarkers = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...BREAKS)), { maxLength: 40 }), fc.nat(), (parts, cut) => {
        const text = parts.map(([p, b]) => p + b).join('');
        const from = text.length ? cut % (text.length + 1) : 0;
        // From a line start, as the parser calls it.
        const start = from === 0 ? 0 : text.lastIndexOf('\n', from - 1) + 1;
        const expected = byScan(text, start);
        if (expected.length) withMarkers++;
        expect(findMarkers(text, start, text.length), JSON.stringify([text, start])).toEqual(expected);
      }),
      { numRuns: 8000 },
    );
    expect(withMarkers).toBeGreaterThan(1500);
  });

  it('chosen cases: hidden by fences, comments and CDATA in tools, found again after them', () => {
    const text = [
      '# %% A[^1]', '```', '# %% hidden', '```', '# %% B[^2]', '<!-- open', '# %% hidden', 'close --> <!-- again', '# %% hidden', '-->',
      '# %% C[^3]', '<tool>', '<![CDATA[', '# %% hidden', ']]> `<!--`', '</tool>', '# %% D[^4]', '<![CDATA[', '# %% E[^5]', ']]>',
    ].join('\n');
    const found = findMarkers(text, 0, text.length);
    expect(found).toEqual(byScan(text));
    expect(found.map((at) => text.slice(at, text.indexOf('\n', at)))).toEqual(['# %% A[^1]', '# %% B[^2]', '# %% C[^3]', '# %% D[^4]', '# %% E[^5]']);
  });

  it('a marker ends a tool element: CDATA after it hides nothing', () => {
    const text = '<tool>\n# %% A[^1]\n<![CDATA[\n# %% B[^2]\n]]>\n';
    expect(findMarkers(text, 0, text.length)).toEqual(byScan(text));
    expect(byScan(text)).toHaveLength(2);
  });
});

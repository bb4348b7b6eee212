// The whole-file scan finds the cells; each cell's own scan then reads its
// blocks with the same rules. They must agree: a cell scanned alone finds
// no marker after its marker line (fences, comments, CDATA in tool elements
// hide markers until they close; one that never closes hides nothing), and
// the cells the parse makes are the markers of a full scan, which records
// every block, as the file scan (`blocks: false`, stepping over closed
// fences) finds them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from '../../server/syntax/document.js';
import { scan } from '../../server/syntax/format/scan.js';

function fileScan(text: string, from: number, blocks: boolean) {
  return scan(text, from, text.length, { markers: true, blocks, leadingLine: false, stopAtMarker: undefined });
}

/** Markers, by a scan that records every block. */
function markersOf(text: string, from = 0): number[] {
  return fileScan(text, from, true).markers.map((m) => m.line.start);
}

/** Markers with their line indices, and the line count. */
function found(text: string, from: number, blocks: boolean): unknown {
  const r = fileScan(text, from, blocks);
  return { markers: r.markers.map((m) => [m.line.start, m.index]), lines: r.lineCount };
}

/** Markers a cell's text holds after its marker line, scanned alone. */
function markersInside(cellText: string): number[] {
  const nl = cellText.indexOf('\n');
  return nl === -1 ? [] : markersOf(cellText, nl + 1);
}

const PIECES = [
  '# %% A[^1]', '## %%% B[^1.x]', '#%%', '   # %%', '    # %%', '\t# %%', '# x', 'x # %%',
  '```', '~~~', '````py', '```x`', ' ```', '`code`', '`',
  '<!--', '-->', '<!-- c -->', '`<!--`',
  '<tool>', '</tool>', '<tool name="x">', '<tool/>', '<tool_name>', '<![CDATA[', ']]>',
  // A metadata line's quoted values, where none of the above opens anything.
  '[^1]: [tool] s="', '[^x]: [markdown]', ' k="', '"', '\\"',
  'x', ' ', '  ', '<', '#', '~',
] as const;
const BREAKS = ['\n', '\n', '\r\n', '\r', '\u2028', ''] as const;

describe('the file scan and the cell scans', () => {
  it('agree: a cell scanned alone holds no marker, and the cells are the markers (property)', () => {
    let withMarkers = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...BREAKS)), { maxLength: 40 }), (parts) => {
        const text = parts.map(([p, b]) => p + b).join('');
        const doc = parse(text, { fileName: 'x.msg.md' });
        const first = doc.segments.find((s) => s.kind === 'prologue' || s.kind === 'cell');
        const body = first ? doc.offsetOf(first) : text.length;
        const expected = markersOf(text, body);
        if (expected.length) withMarkers++;
        expect(doc.cells.map((c) => doc.offsetOf(c)), JSON.stringify(text)).toEqual(expected);
        expect(found(text, body, false), JSON.stringify(text)).toEqual(found(text, body, true));
        for (const cell of doc.cells) expect(markersInside(cell.text), JSON.stringify([text, doc.offsetOf(cell)])).toEqual([]);
      }),
      { numRuns: 4000 },
    );
    expect(withMarkers).toBeGreaterThan(700);
  });

  it('the file scan steps over closed fences as the full scan reads them (property)', () => {
    const lines = ['```', '~~~', '````', '```py', '# %% A', '## %%% B[^1.x]', 'x', '<!--', '-->', '<tool>', '<![CDATA[', ']]>', '</tool>'] as const;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...lines), { maxLength: 30 }), (parts) => {
        const text = parts.join('\n');
        expect(found(text, 0, false), JSON.stringify(text)).toEqual(found(text, 0, true));
      }),
      { numRuns: 3000 },
    );
    // A closer line is not read again as an opener.
    const text = '# %% Q\n```\nx\n```\n# %% A\n```\n';
    expect(found(text, 0, false)).toEqual(found(text, 0, true));
    expect(markersOf(text)).toEqual([0, 17]);
  });

  it('chosen cases: hidden by fences, comments and CDATA in tools, found again after them', () => {
    const text = [
      '# %% A[^1]', '```', '# %% hidden', '```', '# %% B[^2]', '<!-- open', '# %% hidden', 'close --> <!-- again', '# %% hidden', '-->',
      '# %% C[^3]', '<tool>', '<![CDATA[', '# %% hidden', ']]> `<!--`', '</tool>', '# %% D[^4]', '<![CDATA[', '# %% E[^5]', ']]>',
    ].join('\n');
    const found = markersOf(text);
    expect(found.map((at) => text.slice(at, text.indexOf('\n', at)))).toEqual(['# %% A[^1]', '# %% B[^2]', '# %% C[^3]', '# %% D[^4]', '# %% E[^5]']);
    const doc = parse(text, { fileName: 'x.msg.md' });
    expect(doc.cells.map((c) => doc.offsetOf(c))).toEqual(found);
  });

  it('a marker ends a tool element: CDATA after it hides nothing', () => {
    const text = '<tool>\n# %% A[^1]\n<![CDATA[\n# %% B[^2]\n]]>\n';
    expect(markersOf(text)).toHaveLength(2);
    expect(found(text, 0, false)).toEqual(found(text, 0, true));
  });
});

// A fence that never closes (spec section 2) hides no marker: it holds the
// lines after it up to the next marker-like line, so a fence line among them
// is code and cannot open a second fence that would run over that marker.
// Properties over generated texts, for the whole-file scan and the parse.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from '../../server/syntax/document.js';
import { isMarkerCandidate } from '../../server/syntax/format/scan-lines.js';
import { scan } from '../../server/syntax/format/scan.js';
import { messageFile, runs, syntaxSoup } from '../reliability/gen.js';

/** Where the cells may start: after a BOM and the frontmatter. */
function bodyStart(text: string): number {
  const doc = parse(text, { fileName: 'x.msg.md' });
  const first = doc.segments.find((s) => s.kind === 'prologue' || s.kind === 'cell');
  return first ? doc.offsetOf(first) : text.length;
}

function fileScan(text: string, from = bodyStart(text)) {
  return scan(text, from, text.length, { markers: true, blocks: true, leadingLine: false, stopAtMarker: undefined });
}

const markersOf = (text: string): number[] => fileScan(text).markers.map((m) => m.line.start);

/** Line starts (after LF; a lone CR or U+2028 ends no line) in [from, to). */
function lineStarts(text: string, from: number, to: number): number[] {
  const out: number[] = [];
  for (let at = from; at < to; ) {
    out.push(at);
    const nl = text.indexOf('\n', at);
    if (nl === -1 || nl + 1 > to) break;
    at = nl + 1;
  }
  return out;
}

function contentEnd(text: string, start: number): number {
  const nl = text.indexOf('\n', start);
  const end = nl === -1 ? text.length : nl;
  return end > start && text[end - 1] === '\r' ? end - 1 : end;
}

/** Lines that open a fence: ``` or ~~~, three to eight long, with or without an info string. */
const fenceLine = fc
  .record({
    char: fc.constantFrom('`', '~'),
    length: fc.integer({ min: 3, max: 8 }),
    indent: fc.constantFrom('', '', ' ', '   '),
    info: fc.constantFrom('', '', 'python', ' js', 'text title="x"', ' {.py}'),
  })
  .map((f) => `${f.indent}${f.char.repeat(f.length)}${f.info}`);

/** Lines that may follow it in its cell: fence lines, comments, tool tags, CDATA, code (no marker-like line). */
const bodyLine = fc.oneof(
  fenceLine,
  fc.constantFrom('x = 1', '', '```', '~~~', '````', '<!--', '-->', '<!-- note -->', '<tool>', '</tool>', '<![CDATA[', ']]>', '# comment', '[^1]: [markdown]'),
);

/** Texts with cells, fences, comments and tool elements: generated message files and the format's fragments. */
const text = fc.oneof(messageFile, syntaxSoup(60));

describe('a fence that is never closed', () => {
  it('hides no marker: inserted into a cell, with or without lines after it, it changes no marker (property)', () => {
    let tried = 0;
    let withLines = 0;
    fc.assert(
      fc.property(text, fenceLine, fc.array(bodyLine, { maxLength: 4 }), fc.nat(), fc.constantFrom('\n', '\r\n'), (original, fence, lines, pick, eol) => {
        const markers = markersOf(original);
        // Line starts in the cells (after the marker line) and in the text
        // before the first cell, each with the end of its cell. The cell's end
        // counts when it is a line start: the fence is then its last line.
        const isLineStart = (at: number): boolean => at === 0 || original[at - 1] === '\n';
        const points: { at: number; end: number }[] = [];
        const from = bodyStart(original);
        const bounds = [from, ...markers, original.length];
        for (let i = 0; i + 1 < bounds.length; i++) {
          const nl = i === 0 ? -1 : original.indexOf('\n', bounds[i]!);
          const start = i === 0 ? from : nl === -1 ? original.length : nl + 1;
          const end = bounds[i + 1]!;
          for (const at of lineStarts(original, start, end)) points.push({ at, end });
          if (isLineStart(end) && (end > start || start === end)) points.push({ at: end, end });
        }
        fc.pre(points.length > 0);
        const { at, end } = points[pick % points.length]!;
        // A marker-like line after it in its cell (one hidden by a closed
        // fence, comment or CDATA) becomes a marker: an unclosed fence hides
        // none (the chosen case below).
        fc.pre(lineStarts(original, at, end).every((s) => !isMarkerCandidate(original, s, contentEnd(original, s))));
        // Inside a <tool> element an unclosed fence ends at `</tool>`; lines
        // after that are the cell's own content again, where a comment that
        // closes in a later cell hides markers as the spec says.
        const closer = lines.indexOf('</tool>');
        const held = closer === -1 ? lines : lines.slice(0, closer + 1);
        const inserted = [fence, ...held].map((l) => l + eol).join('');
        const changed = original.slice(0, at) + inserted + original.slice(at);
        // Only where the line opens a fence that never closes (not where it
        // is code in a fence, comment or CDATA, or closes an earlier fence).
        const opened = fileScan(changed, from).fences.find((f) => f.open.start === at);
        fc.pre(opened !== undefined && opened.close === undefined);
        tried++;
        if (held.some((l) => /^ {0,3}(`{3,}|~{3,})/.test(l))) withLines++;
        const expected = markers.map((m) => (m >= at ? m + inserted.length : m));
        expect(fileScan(changed, from).markers.map((m) => m.line.start), JSON.stringify([original, at, fence])).toEqual(expected);
        const doc = parse(changed, { fileName: 'x.msg.md' });
        expect(doc.cells.map((c) => doc.offsetOf(c))).toEqual(expected);
      }),
      { numRuns: runs(2000) },
    );
    expect(tried).toBeGreaterThan(runs(2000) / 10);
    expect(withLines).toBeGreaterThan(runs(2000) / 20);
  });

  it('ends at the first marker-like line after it, which is a marker (property)', () => {
    fc.assert(
      fc.property(text, (t) => {
        const s = fileScan(t);
        const markers = new Set(s.markers.map((m) => m.line.start));
        for (const f of s.fences) {
          // Inside a tool element the end tag may end it first (the chosen case below).
          if (f.close || s.tools.some((x) => x.start < f.open.start && f.open.start < x.end)) continue;
          const next = lineStarts(t, f.open.end, t.length).find((at) => isMarkerCandidate(t, at, contentEnd(t, at)));
          expect(f.contentEnd).toBe(next ?? t.length);
          if (next !== undefined) expect(markers.has(next), JSON.stringify([t, f.open.start])).toBe(true);
        }
      }),
      { numRuns: runs(2000) },
    );
  });

  it('a marker-like line it holds becomes a marker, though a closed fence hid it', () => {
    // Without the `~~~~`, the ``` on line 2 is closed on line 4 and hides
    // line 3. With it, the ``` is code of the unclosed fence, and line 3 is
    // the first marker after it: a marker.
    const before = '# %% [^1]\n```\n# %% [^2]\n```\n';
    const after = '# %% [^1]\n~~~~\n```\n# %% [^2]\n```\n';
    expect(parse(before, { fileName: 'x.msg.md' }).cells.map((c) => c.id)).toEqual(['1']);
    expect(parse(after, { fileName: 'x.msg.md' }).cells.map((c) => c.id)).toEqual(['1', '2']);
  });

  it('inside a tool element ends at the line of the end tag, which still closes the element', () => {
    const t = '# %%% [^1.abcd]\n<tool>\n~~~~\n<!--\n  </tool> ```\n```\n# %% [^2]\n```\n';
    const s = fileScan(t, 0);
    expect(s.tools.map((x) => [x.closed, t.slice(x.closeTagStart, x.end)])).toEqual([[true, '</tool>']]);
    expect(s.fences.map((f) => [t.slice(f.open.start, f.open.contentEnd), t.slice(f.contentStart, f.contentEnd), f.close !== undefined])).toEqual([
      ['~~~~', '<!--\n', false],
      ['```', '# %% [^2]\n', true],
    ]);
    // The ``` after the element is a fence of its own, closed after the marker it hides.
    expect(s.markers).toHaveLength(1);
  });
});

// Fenced code blocks found by the scanner, against a plain line-by-line
// reading of the same rules: an opener (up to three spaces, three or more
// ` or ~, for ` no ` in the info string) is closed by the first later line of
// up to three spaces, a run of the same character at least as long, and
// blanks; lines end at LF or CRLF only; an opener that never closes holds
// the lines up to the next marker-like line (a fence line among them is code).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CloserIndex } from '../../server/syntax/format/scan-lookahead.js';
import { scan } from '../../server/syntax/format/scan.js';

const OPENER = /^( {0,3})(`{3,}|~{3,})([\s\S]*)$/;
const CLOSER = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const MARKER_LIKE = /^ {0,3}#+[ \t]*%%/;

function reference(text: string): [number, number | undefined][] {
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) {
      if (start < text.length) lines.push(text.slice(start));
      break;
    }
    lines.push(text.slice(start, nl > start && text[nl - 1] === '\r' ? nl - 1 : nl));
    start = nl + 1;
  }
  const out: [number, number | undefined][] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = OPENER.exec(lines[i]!);
    if (!m || (m[2]![0] === '`' && m[3]!.includes('`'))) continue;
    let close: number | undefined;
    for (let j = i + 1; j < lines.length; j++) {
      const c = CLOSER.exec(lines[j]!);
      if (c && c[1]![0] === m[2]![0] && c[1]!.length >= m[2]!.length) {
        close = j;
        break;
      }
    }
    out.push([i, close]);
    if (close !== undefined) i = close;
    else while (i + 1 < lines.length && !MARKER_LIKE.test(lines[i + 1]!)) i++;
  }
  return out;
}

const piece = fc.constantFrom('```', '~~~', '````', '`', '~', ' ', '   ', '    ', 'x', '\t', '\n', '\r\n', '\r', '\u2028', 'py', '# %%');

const lineOf = fc.array(fc.constantFrom('```', '~~~', '````', ' ', '   ', '    ', 'x', '\t', '\r', '# %%'), { maxLength: 4 }).map((a) => a.join(''));

describe('fenced code blocks', () => {
  it('chosen cases', () => {
    for (const text of ['```\n    ```\n', '```\n   ```\n', '~~~~\n~~~\n~~~~~\n', '```\n```\r\n', '```\n```\r', '```\nx```\n``` \t\n', ' ```\n  ```']) {
      const found = scan(text, 0, text.length, { markers: false, blocks: true, leadingLine: false, stopAtMarker: undefined }).fences.map((f) => [f.openIndex, f.closeIndex]);
      expect(found, JSON.stringify(text)).toEqual(reference(text));
    }
  });

  it('are found line by line, for texts of fence-like lines', () => {
    fc.assert(
      fc.property(fc.array(lineOf, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        const text = lines.join(eol);
        const found = scan(text, 0, text.length, { markers: false, blocks: true, leadingLine: false, stopAtMarker: undefined }).fences.map((f) => [f.openIndex, f.closeIndex]);
        expect(found).toEqual(reference(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('are found as a line-by-line reading finds them', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join('');
        const found = scan(text, 0, text.length, { markers: false, blocks: true, leadingLine: false, stopAtMarker: undefined }).fences.map((f) => [f.openIndex, f.closeIndex]);
        expect(found).toEqual(reference(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the closer look-up', () => {
  // `find` looks near the opener first and indexes the region only for a
  // fence that does not close nearby: both ways give the same closer.
  const piece = fc.constantFrom('```', '````', '~~~', '  ```', '    ```', '``` x', 'text', '', '```\t', '~~~~~', '\r');
  it('gives the same closer looking nearby as from the index (property)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.integer({ min: 0, max: 40 }), (lines, reach) => {
        const text = lines.join('\n');
        const near = new CloserIndex(text, 0, text.length, reach);
        const indexed = new CloserIndex(text, 0, text.length, 0);
        for (let at = 0; at <= text.length; at = text.indexOf('\n', at) + 1 || text.length + 1) {
          for (const [char, length] of [['`', 3], ['`', 4], ['~', 3], ['~', 5]] as const) {
            expect(near.find(char, length, at)).toBe(indexed.find(char, length, at));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

// A line index made from the previous version's by an edit (as the
// incremental parser makes them, one keystroke after another, folding edits
// near each other into one) equals a fresh index of the new text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../server/syntax/format/lines.js';

describe('a line index made by edits', () => {
  const edit = fc.record({
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    // Mostly near the previous edit, as typing is; sometimes anywhere.
    near: fc.boolean(),
    del: fc.constantFrom(0, 0, 1, 2, 5, 30),
    ins: fc.constantFrom('', 'a', '\n', 'ab\ncd', '\n\n\n', 'x\r\ny', '# %% [^1]\n\ntext\n'),
    how: fc.constantFrom('replaced', 'moved', 'edited'),
  });
  it('has the starts and positions of a fresh index after every edit of random sequences (property)', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 40 }), (edits) => {
        let text = 'one\ntwo\n\nthree and more\n'.repeat(20);
        let index = new LineIndex(text);
        let last = 0;
        for (const e of edits) {
          const start = e.near ? Math.min(text.length, last + Math.floor(e.at * 40)) : Math.floor(e.at * text.length);
          const oldEnd = Math.min(text.length, start + e.del);
          const removed = text.slice(start, oldEnd);
          const next = text.slice(0, start) + e.ins + text.slice(oldEnd);
          const breaks = /\n/.test(removed) || /\n/.test(e.ins);
          if (e.how === 'moved' && !breaks) index = index.moved(start, e.ins.length - removed.length, next);
          else if (e.how === 'edited') index = index.edited(next, start, oldEnd, start + e.ins.length);
          else index = index.replaced(start, oldEnd, e.ins, next);
          text = next;
          last = start + e.ins.length;
          const fresh = new LineIndex(text);
          expect(index.lineCount).toBe(fresh.lineCount);
          for (const p of [0, start, last, text.length, Math.floor(text.length / 2)]) expect(index.position(p)).toEqual(fresh.position(p));
        }
        expect(index.starts).toEqual(new LineIndex(text).starts);
      }),
      { numRuns: 300 },
    );
  });
});

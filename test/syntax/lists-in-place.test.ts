// Long lists changed in place (server/base/lists.ts): replaceRange for
// arrays, spliceNumbers for the typed arrays of the by-index facts, which
// reuses the spent version's buffer when it has room. After any sequence of
// splices, each typed array holds what a plain array spliced the same way
// holds, with the new elements filled by the caller.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replaceRange, spliceNumbers } from '../../server/base/lists.js';

const splice = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), removed: fc.nat(40), added: fc.nat(40), fill: fc.integer({ min: 0, max: 200 }) });

describe('spliceNumbers', () => {
  it('equals an array spliced the same way, for Int32Array, Uint8Array and Float64Array', () => {
    fc.assert(
      fc.property(fc.constantFrom(Int32Array, Uint8Array, Float64Array), fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 60 }), fc.array(splice, { minLength: 1, maxLength: 12 }), (Type, start, steps) => {
        let typed: Int32Array | Uint8Array | Float64Array = Type.from(start);
        const plain = [...start];
        for (const s of steps) {
          const at = Math.floor(s.at * plain.length);
          const removed = Math.min(s.removed, plain.length - at);
          typed = spliceNumbers(typed, at, removed, s.added);
          typed.fill(s.fill, at, at + s.added);
          plain.splice(at, removed, ...Array<number>(s.added).fill(s.fill));
          expect([...typed]).toEqual(plain);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("grows with room to spare, then moves the elements in the same buffer", () => {
    const first = spliceNumbers(Int32Array.from([1, 2, 3]), 1, 0, 1);
    first[1] = 9;
    expect([...first]).toEqual([1, 9, 2, 3]);
    const second = spliceNumbers(first, 0, 1, 2);
    second.fill(7, 0, 2);
    expect(second.buffer).toBe(first.buffer);
    expect([...second]).toEqual([7, 7, 9, 2, 3]);
  });
});

describe('replaceRange', () => {
  it('replaces a range by more items than a call can take as arguments', () => {
    const list = [0, 1, 2, 3];
    const many = Array.from({ length: 200_000 }, (_, i) => i + 10);
    replaceRange(list, 1, 2, many);
    expect(list.length).toBe(200_002);
    expect(list.slice(0, 3)).toEqual([0, 10, 11]);
    expect(list.slice(-2)).toEqual([200_009, 3]);
  });
});

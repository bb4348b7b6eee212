import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batched, jsonChunks } from '../../server/base/json-chunks.js';

const joined = (value: unknown, depth?: number) => [...jsonChunks(value, depth)].join('');

describe('jsonChunks', () => {
  it('joins to JSON.stringify(value, null, 2) for any JSON value, at any depth', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 4 }), (value, depth) => {
        expect(joined(value, depth)).toBe(JSON.stringify(value, null, 2));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves out and writes null as JSON.stringify does, and keeps toJSON, dates and boxed values whole', () => {
    const value = {
      a: undefined,
      b: [undefined, () => 1, Symbol('s'), 1],
      c: () => 2,
      d: new Date(0),
      e: { toJSON: () => ({ x: 1 }) },
      f: Object.assign(Object.create(null), { g: 'h' }),
      i: new String('text'),
      j: new Map([[1, 2]]),
      k: {},
      l: [],
      m: 'line\nbreak "quoted"',
    };
    expect(joined(value)).toBe(JSON.stringify(value, null, 2));
    expect(joined(value, 5)).toBe(JSON.stringify(value, null, 2));
  });

  it('gives an item of a top-level list, and of a list under a top-level key, in pieces of their own', () => {
    const list = [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }];
    expect([...jsonChunks(list)].length).toBeGreaterThan(list.length);
    const request = { system: 's', messages: list };
    const pieces = [...jsonChunks(request)];
    expect(pieces.some((p) => p.includes('"role": "user"') && !p.includes('"assistant"'))).toBe(true);
  });
});

describe('batched', () => {
  it('joins pieces into batches of at least the size, the last one shorter, and loses nothing', () => {
    const pieces = ['ab', 'c', 'def', 'g', 'hi'];
    const out = [...batched(pieces, 3)];
    expect(out).toEqual(['abc', 'def', 'ghi']);
    expect([...batched(['a', 'b'], 10)]).toEqual(['ab']);
    expect([...batched([], 10)]).toEqual([]);
  });
});

// PersistentMap: a changed copy shares what it did not change, and the
// original stays as it was, whatever is done to the copy.
import { describe, expect, it } from 'vitest';
import { PersistentMap } from '../../server/base/persistent-map.js';

describe('PersistentMap', () => {
  it('answers as a Map after random sets and deletes of its base and new keys, and every earlier version keeps its entries', () => {
    let seed = 11;
    const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    const versions: [PersistentMap<string | number, number>, Map<string | number, number>][] = [];
    // From a Map of a version made whole, which the map keeps as its base.
    let model = new Map<string | number, number>([...Array(200).keys()].map((i) => [i % 2 ? `id${i}` : i, -1]));
    let map = PersistentMap.of(new Map(model));
    for (let step = 0; step < 300; step++) {
      const e = map.edit();
      model = new Map(model);
      for (let k = rand(6); k >= 0; k--) {
        // Strings, integers and fractions (cell keys between neighbours) as keys.
        const key = [`id${rand(400)}`, rand(400), rand(400) + 0.5][rand(3)]!;
        if (rand(3) === 0) {
          e.delete(key);
          model.delete(key);
        } else {
          e.set(key, step);
          model.set(key, step);
        }
      }
      map = e.done();
      versions.push([map, model]);
    }
    for (const [m, expected] of versions) {
      expect(m.size).toBe(expected.size);
      expect(new Map(m)).toEqual(expected);
      for (const key of expected.keys()) expect(m.get(key)).toBe(expected.get(key));
      expect(m.has('absent')).toBe(false);
    }
  });

  it('an edit used again after done changes neither the map it gave nor the one it came from', () => {
    const base = PersistentMap.from<string, number>([['a', 1]]);
    const e = base.edit().set('b', 2);
    const first = e.done();
    e.set('a', 9).delete('b');
    const second = e.done();
    expect([...base]).toEqual([['a', 1]]);
    expect(new Map(first)).toEqual(new Map([['a', 1], ['b', 2]]));
    expect(new Map(second)).toEqual(new Map([['a', 9]]));
  });
});

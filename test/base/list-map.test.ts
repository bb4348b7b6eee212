import { describe, expect, it } from 'vitest';
import { ListMap, listWriter, type Packed } from '../../server/base/list-map.js';
import { PersistentMap } from '../../server/base/persistent-map.js';

const a = { n: 'a' };
const b = { n: 'b' };
const c = { n: 'c' };

describe('ListMap', () => {
  it('keeps a key of one value without a list, and reads every key as a list', () => {
    const packed = new Map<string, Packed<{ n: string }>>();
    const w = listWriter(packed);
    w.set('x', [a]);
    w.set('y', [b]);
    w.set('y', [...w.get('y')!, c]);
    expect(packed.get('x')).toBe(a);
    expect(packed.get('y')).toEqual([b, c]);
    const m = new ListMap(packed);
    expect(m.size).toBe(2);
    expect(m.get('x')).toEqual([a]);
    expect(m.get('y')).toEqual([b, c]);
    expect(m.get('z')).toBeUndefined();
    expect(m.has('x') && !m.has('z')).toBe(true);
    expect([...m]).toEqual([['x', [a]], ['y', [b, c]]]);
    expect([...m.keys()]).toEqual(['x', 'y']);
    expect([...m.values()]).toEqual([[a], [b, c]]);
    const seen: [string, readonly { n: string }[]][] = [];
    m.forEach((v, k) => seen.push([k, v]));
    expect(seen).toEqual([...m.entries()]);
  });

  it('writes through a persistent map edit, leaving the map it came from as it was', () => {
    const before = new ListMap(PersistentMap.of(new Map<string, Packed<{ n: string }>>([['x', a], ['y', [b, c]]])));
    const edit = PersistentMap.of(before.packed).edit();
    const w = listWriter(edit);
    w.set('x', [...w.get('x')!, b]);
    w.set('y', w.get('y')!.filter((v) => v !== b));
    w.delete('z');
    const after = new ListMap(edit.done());
    expect(after.get('x')).toEqual([a, b]);
    expect(after.get('y')).toEqual([c]);
    expect(before.get('x')).toEqual([a]);
    expect(before.get('y')).toEqual([b, c]);
  });
});

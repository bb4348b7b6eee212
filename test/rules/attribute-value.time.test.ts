// attribute-value reads times by hand; the regular expression it replaced
// (kept here as the oracle) must give the same answer on every text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validTime } from '../../rules/attribute-value.js';

const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-](\d{2}):?(\d{2}))$/;

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function oracle(v: string): boolean {
  const m = TIME.exec(v);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(Number(m[1]), month)) return false;
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || (m[6] !== undefined && Number(m[6]) > 60)) return false;
  return m[8] === undefined || (Number(m[8]) <= 23 && Number(m[9]) <= 59);
}

// Pieces of times, right and wrong, so that random joins are often close to valid.
const piece = fc.constantFrom(
  '2024', '2025', '1900', '2000', '-', '02', '29', '30', '31', '13', '00', '12', 'T', ':', '09', '23', '24', '59', '60', '61',
  '.', '5', '123', 'Z', 'z', '+', '-', '08', '0800', '+08:00', '-05:30', ' ', '\n', '٣', 'x', '',
);

describe('validTime', () => {
  it('answers as the regular expression on chosen texts', () => {
    const texts = [
      '2025-05-30T09:00:00+08:00', '2025-05-30T09:00Z', '2025-05-30T09:00:00.123-05:00', '2024-02-29T23:59:59+0000',
      '2025-05-30T09:00:60Z', '2025-05-30T09:00:00.Z', '2025-05-30T09:00:Z', '2025-05-30T09:00+08:0', '2025-05-30T09:00+080:0',
      '2025-05-30T09:00:00Z\n', '2025-05-30T09:00:00ZZ', '2025-05-30T09:00:00+08:00:00', '2100-02-29T09:00:00Z', '', 'T',
    ];
    for (const v of texts) expect(validTime(v), v).toBe(oracle(v));
  });

  it('answers as the regular expression on random texts', () => {
    const valid = fc.tuple(
      fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.option(fc.integer({ min: 0, max: 61 })),
      fc.constantFrom('', '.5', '.', '.123'), fc.constantFrom('Z', '+08:00', '-0530', '+24:00', '+08:60', '+8:00', ''),
    ).map(([y, mo, d, h, mi, s, f, z]) => {
      const two = (n: number) => String(n).padStart(2, '0');
      return `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}${s === null ? '' : `:${two(s)}${f}`}${z}`;
    });
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(valid, fc.array(piece, { maxLength: 14 }).map((p) => p.join(''))), (v) => {
        if (oracle(v)) accepted++;
        expect(validTime(v), v).toBe(oracle(v));
      }),
      { numRuns: 5000 },
    );
    // The generator must reach both answers for the comparison to mean anything.
    expect(accepted).toBeGreaterThan(100);
  });
});

// Numbers that JSON text spells but a double does not hold: JSON.parse reads
// `12345678901234567890` as 12345678901234567000 and `1e999` as Infinity,
// which JSON.stringify writes as `null`. RFC 8259 (section 6) leaves such
// numbers to each reader; JavaScript, and the SDKs that send a request's
// arguments as an object, keep a double. So a number is exact when the
// double it reads as is written back as the same number (`1.0` and `1e2` are:
// `1` and `100`; `0.1` is, as `0.1`), and the places that would change one
// say so (tool-xml-structure for a typed argument, export and import notes).

import type { JsonNode } from './json.js';

/** A JSON number's text, the whole of it. */
export const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

const SHORT_INTEGER = /^-?[0-9]{1,15}$/;

/** A decimal as sign, digits without leading or trailing zeros, and the power of ten of the last digit; zero has no digits. */
function decimal(raw: string): { negative: boolean; digits: string; exponent: number } {
  const negative = raw.startsWith('-');
  const e = raw.search(/[eE]/);
  const mantissa = raw.slice(negative ? 1 : 0, e === -1 ? raw.length : e);
  const dot = mantissa.indexOf('.');
  const fraction = dot === -1 ? '' : mantissa.slice(dot + 1);
  let digits = (dot === -1 ? mantissa : mantissa.slice(0, dot)) + fraction;
  let exponent = (e === -1 ? 0 : Number(raw.slice(e + 1))) - fraction.length;
  let s = 0;
  while (s < digits.length && digits.charCodeAt(s) === 48) s++;
  let t = digits.length;
  while (t > s && digits.charCodeAt(t - 1) === 48) t--;
  exponent += digits.length - t;
  digits = digits.slice(s, t);
  return { negative: negative && digits !== '', digits, exponent: digits === '' ? 0 : exponent };
}

/**
 * Whether a JSON number (its text, JSON_NUMBER) reads as a double that is
 * written back as the same number. Zero is zero whatever its sign.
 */
export function exactNumber(raw: string): boolean {
  // Whole numbers of up to 15 digits, most of those a file or a conversation holds, are exact.
  if (raw.length <= 16 && SHORT_INTEGER.test(raw)) return true;
  const n = Number(raw);
  if (!Number.isFinite(n)) return false;
  const a = decimal(raw);
  const b = decimal(String(n));
  return a.negative === b.negative && a.digits === b.digits && a.exponent === b.exponent;
}

/** How JSON.stringify writes the double a number reads as (`null` for one past the largest). */
export function sentAs(raw: string): string {
  return JSON.stringify(Number(raw));
}

/** The numbers of a JSON node (the reader's, whose depth is bounded) that are not exact, as written, in order. */
export function inexactNumbers(node: JsonNode, out: string[] = []): string[] {
  if (node.kind === 'number') {
    if (!exactNumber(node.raw)) out.push(node.raw);
  } else if (node.kind === 'array') {
    for (const item of node.items) inexactNumbers(item, out);
  } else if (node.kind === 'object') {
    for (const e of node.entries) inexactNumbers(e.value, out);
  }
  return out;
}

/**
 * The numbers of a JSON text, outside its strings, that are not exact, as
 * written, in order: what JSON.parse changes as it reads the text.
 */
export function inexactNumbersIn(text: string): string[] {
  const out: string[] = [];
  const number = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1;
      i++;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      number.lastIndex = i;
      const raw = number.exec(text)?.[0] ?? '';
      if (raw !== '' && raw !== '-' && !exactNumber(raw)) out.push(raw);
      i += Math.max(raw.length, 1);
    } else i++;
  }
  return out;
}

import { defineSegmentRule } from '../server/engine/rule-kit.js';

const DURATION = /^\d+(?:\.\d+)?(?:ms|s|m)$/;
const MIME = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(?:\s*;.*)?$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS[month - 1]!;
}

/** The number that `n` ASCII digits at `i` write, or -1. */
function digits(v: string, i: number, n: number): number {
  let x = 0;
  for (let k = i; k < i + n; k++) {
    const c = v.charCodeAt(k);
    if (!(c >= 48 && c <= 57)) return -1;
    x = x * 10 + c - 48;
  }
  return x;
}

/**
 * `YYYY-MM-DDTHH:MM[:SS[.fraction]]` and `Z` or `±HH[:]MM`, a date that
 * exists and times in range. Read by hand rather than with a regular
 * expression: most cells have a time, and each match would be an array of
 * nine strings to collect.
 */
export function validTime(v: string): boolean {
  const year = digits(v, 0, 4);
  const month = digits(v, 5, 2);
  const day = digits(v, 8, 2);
  const hour = digits(v, 11, 2);
  const minute = digits(v, 14, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0) return false;
  if (v[4] !== '-' || v[7] !== '-' || v[10] !== 'T' || v[13] !== ':') return false;
  let i = 16;
  let second = 0;
  if (v[i] === ':') {
    second = digits(v, i + 1, 2);
    if (second < 0) return false;
    i += 3;
    if (v[i] === '.') {
      const fraction = ++i;
      while (i < v.length && v.charCodeAt(i) >= 48 && v.charCodeAt(i) <= 57) i++;
      if (i === fraction) return false;
    }
  }
  const zone = v[i];
  if (zone === 'Z') i++;
  else if (zone === '+' || zone === '-') {
    const offsetHours = digits(v, i + 1, 2);
    if (offsetHours < 0) return false;
    i += 3;
    if (v[i] === ':') i++;
    const offsetMinutes = digits(v, i, 2);
    if (offsetMinutes < 0 || offsetHours > 23 || offsetMinutes > 59) return false;
    i += 2;
  } else return false;
  if (i !== v.length) return false;
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  return hour <= 23 && minute <= 59 && second <= 60;
}

const CHECKS: Record<string, { ok: (v: string) => boolean; expected: string }> = {
  time: { ok: validTime, expected: 'an ISO 8601 date-time with a UTC offset or Z, such as `2025-05-30T09:00:00+08:00`' },
  duration: { ok: (v) => DURATION.test(v), expected: 'a number and a unit ms, s or m, such as `0.5s` or `120ms`' },
  status: { ok: (v) => v === 'success' || v === 'error', expected: '`success` or `error`' },
  reasoning: { ok: (v) => ['1', '0', 'true', 'false'].includes(v), expected: '1, 0, true or false' },
  mime_type: { ok: (v) => MIME.test(v), expected: 'a MIME type `type/subtype`, such as `text/plain` or `image/png`' },
  // Like the others, checked wherever it is written: on a cell that is not a
  // message cell it means nothing, but a wrong value is still wrong.
  role: { ok: (v) => v === 'user' || v === 'system', expected: '`user` (the default) or `system`' },
  // Any text but a quote (a line holds no newline): `\"` would put one in.
  call_id: { ok: (v) => !v.includes('"'), expected: 'the id the model gave the call, without `"`' },
};

export default defineSegmentRule(
  {
    id: 'attribute-value',
    group: 'structure',
    severity: 'error',
    fixable: null,
    description: 'A known attribute with an invalid value: `time`, `duration`, `status`, `reasoning`, `mime_type`, `role`, `call_id`.',
  },
  (input, { report }) => {
    for (const m of input.segment.entries) {
      if (m.node.type === undefined || !input.isMetadataLine(m)) continue;
      // On a temporary agent's line, `reasoning` is the agent setting (a
      // boolean, `True`/`False` accepted, spec section 7), which agent-config checks.
      const agentLine = m.node.type === 'agent' && !input.isCellId(m);
      for (const a of m.node.attributes) {
        if (agentLine && a.key === 'reasoning') continue;
        const check = CHECKS[a.key];
        if (!check || check.ok(a.value)) continue;
        report({ at: input.abs(a.valueSpan), message: `\`${a.key}\` must be ${check.expected}, not \`${a.value}\`.` });
      }
    }
  },
);

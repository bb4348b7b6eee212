import { isMetadataLine } from '../server/syntax/metadata.js';
import { defineSegmentRule } from '../server/engine/rule-kit.js';

const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-](\d{2}):?(\d{2}))$/;
const DURATION = /^\d+(?:\.\d+)?(?:ms|s|m)$/;
const MIME = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(?:\s*;.*)?$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS[month - 1]!;
}

function validTime(v: string): boolean {
  const m = TIME.exec(v);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(Number(m[1]), month)) return false;
  const s = m[6];
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || (s !== undefined && Number(s) > 60)) return false;
  if (m[8] !== undefined && (Number(m[8]) > 23 || Number(m[9]) > 59)) return false;
  return true;
}

const CHECKS: Record<string, { ok: (v: string) => boolean; expected: string }> = {
  time: { ok: validTime, expected: 'an ISO 8601 date-time with a UTC offset or Z, such as `2025-05-30T09:00:00+08:00`' },
  duration: { ok: (v) => DURATION.test(v), expected: 'a number and a unit ms, s or m, such as `0.5s` or `120ms`' },
  status: { ok: (v) => v === 'success' || v === 'error', expected: '`success` or `error`' },
  reasoning: { ok: (v) => ['1', '0', 'true', 'false'].includes(v), expected: '1, 0, true or false' },
  mime_type: { ok: (v) => MIME.test(v), expected: 'a MIME type `type/subtype`, such as `text/plain` or `image/png`' },
};

export default defineSegmentRule(
  {
    id: 'attribute-value',
    group: 'structure',
    severity: 'error',
    fixable: null,
    description: 'A known attribute with an invalid value: `time`, `duration`, `status`, `reasoning`, `mime_type`.',
  },
  (seg, { doc, report }) => {
    if (seg.kind !== 'cell' && seg.kind !== 'prologue') return;
    for (let i = 0, list = seg.parse!.metadata; i < list.length; i++) {
      const node = list[i]!;
      const m = { segment: seg, node };
      if (m.node.type === undefined || !isMetadataLine(doc, m)) continue;
      // On a temporary agent's line, `reasoning` is the agent setting (a
      // boolean, `True`/`False` accepted, spec section 7), which agent-config checks.
      const agentLine = m.node.type === 'agent' && !doc.cellsById.has(m.node.id.id);
      for (let i = 0, list = m.node.attributes; i < list.length; i++) {
        const a = list[i]!;
        if (agentLine && a.key === 'reasoning') continue;
        const check = CHECKS[a.key];
        if (!check || check.ok(a.value)) continue;
        report({ at: m.segment.abs(a.valueSpan), message: `\`${a.key}\` must be ${check.expected}, not \`${a.value}\`.` });
      }
    }
  },
);

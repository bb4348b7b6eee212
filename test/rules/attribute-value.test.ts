// attribute-value: values of the known attributes of spec section 5.
import { describe, expect, it } from 'vitest';
import { check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'attribute-value';
const cell = (attrs: string) => file('# %% Question[^1]', '', `[^1]: [markdown] ${attrs}`, '', 'What is 2 + 2?');
const bad = (attrs: string) => checkRule(RULE, cell(attrs)).map((f) => f.text);

describe('attribute-value', () => {
  describe('time', () => {
    it.each([
      '2025-05-30T09:00:00+08:00',
      '2025-05-30T09:00:00Z',
      '2025-05-30T09:00Z',
      '2025-05-30T09:00:00.123-05:00',
      '2024-02-29T23:59:59+0000',
      '2000-02-29T00:00:00Z',
      '2025-12-31T00:00:00Z',
      '"2025-05-30T09:00:00+08:00"',
    ])('accepts %s', (v) => {
      expect(check(cell(`time=${v}`))).toEqual([]);
    });

    it.each([
      ['2025-05-30T09:00:00', 'no offset'],
      ['2025-05-30', 'a date only'],
      ['"2025-05-30 09:00:00+08:00"', 'a space for T'],
      ['2025-02-30T09:00:00Z', 'a day that does not exist'],
      ['2025-02-29T09:00:00Z', 'February 29 of a common year'],
      ['2100-02-29T09:00:00Z', 'February 29 of a century that is not a leap year'],
      ['2025-04-31T09:00:00Z', 'April 31'],
      ['2025-13-01T09:00:00Z', 'month 13'],
      ['2025-05-30T25:00:00Z', 'hour 25'],
      ['2025-05-30T09:60:00Z', 'minute 60'],
      ['2025-05-30T09:00:00+24:00', 'offset 24 hours'],
      ['yesterday', 'a word'],
    ])('reports %s (%s)', (v) => {
      expect(bad(`time=${v}`)).toEqual([v]);
    });

    it('reports at the value with the expected form in the message', () => {
      const found = check(cell('time=2025-05-30T09:00:00'));
      expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 3, 23, '2025-05-30T09:00:00']]);
      expect(found[0]!.message).toBe(
        '`time` must be an ISO 8601 date-time with a UTC offset or Z, such as `2025-05-30T09:00:00+08:00`, not `2025-05-30T09:00:00`.',
      );
      expect(found[0]!.diagnostic.severity).toBe(2);
    });
  });

  describe('duration', () => {
    it.each(['0.5s', '120ms', '2m', '10s', '"0.2s"'])('accepts %s', (v) => {
      expect(check(cell(`duration=${v}`))).toEqual([]);
    });

    it.each(['1h', '5', 's', '-1s', '1,5s', '1.5 s', '"two seconds"'])('reports %s', (v) => {
      expect(bad(`duration=${v}`)).toEqual([v.includes(' ') && !v.startsWith('"') ? v.split(' ')[0]! : v]);
    });
  });

  describe('status', () => {
    it.each(['success', 'error', '"error"'])('accepts %s', (v) => {
      expect(check(cell(`status=${v}`))).toEqual([]);
    });

    it.each(['ok', 'failed', 'Success'])('reports %s', (v) => {
      expect(bad(`status=${v}`)).toEqual([v]);
    });
  });

  describe('reasoning', () => {
    it.each(['1', '0', 'true', 'false'])('accepts %s', (v) => {
      expect(check(cell(`reasoning=${v}`))).toEqual([]);
    });

    it.each(['yes', 'True', '2'])('reports %s', (v) => {
      expect(bad(`reasoning=${v}`)).toEqual([v]);
    });

    it('leaves reasoning on a temporary agent line to the agent settings', () => {
      const t = file('[^fast]: [agent] models="gpt-4o-mini" reasoning=True', '', '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.');
      expect(check(t)).toEqual([]);
    });
  });

  describe('mime_type', () => {
    it.each(['text/plain', 'image/png', 'application/vnd.api+json', '"text/plain; charset=utf-8"'])('accepts %s', (v) => {
      expect(check(cell(`mime_type=${v}`))).toEqual([]);
    });

    it.each(['text', 'png', '/plain', 'text/'])('reports %s', (v) => {
      expect(bad(`mime_type=${v}`)).toEqual([v]);
    });
  });

  describe('role', () => {
    it.each(['user', 'system', '"system"'])('accepts %s', (v) => {
      expect(check(cell(`role=${v}`))).toEqual([]);
    });

    it.each(['assistant', 'System', 'developer', '""'])('reports %s', (v) => {
      expect(bad(`role=${v}`)).toEqual([v]);
    });

    it('names the two values', () => {
      expect(checkRule(RULE, cell('role=assistant'))[0]!.message).toBe('`role` must be `user` (the default) or `system`, not `assistant`.');
    });

    it('checks the value on a cell that is not a message cell too, as it does status on a message cell', () => {
      const t = file('# %%% Reply[^1]', '', '[^1]: [tool] role=system', '', 'x');
      expect(checkRule(RULE, t)).toEqual([]);
      expect(checkRule(RULE, t.replace('role=system', 'role=admin')).map((f) => f.text)).toEqual(['admin']);
    });
  });

  describe('call_id', () => {
    it.each(['call_abc123', '"toolu_01A9 with spaces"', '"call:a.b/c"'])('accepts %s', (v) => {
      const t = file('# %%% Reply[^1]', '', '[^1]: [tool] name="f"', '', 'x').replace('name="f"', `name="f" call_id=${v}`);
      expect(checkRule(RULE, t)).toEqual([]);
    });

    it('reports a quote in it', () => {
      expect(bad('call_id="a\\"b"')).toEqual(['"a\\"b"']);
    });
  });

  it('does not check other attributes', () => {
    expect(check(cell('output_file=out/1.txt name=anything custom=!!'))).toEqual([]);
  });

  it('reports every bad value of a line', () => {
    expect(bad('status=ok reasoning=maybe duration=fast')).toEqual(['ok', 'maybe', 'fast']);
  });

  it('does not check ordinary footnotes', () => {
    const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Text[^n].', '', '[^n]: [RFC] time=yesterday');
    expect(check(t)).toEqual([]);
  });

  it('has no fix', () => {
    const t = cell('status=ok');
    expect(checkRule(RULE, t)[0]!.diagnostic.fix).toBeUndefined();
    expect(fixText(t)).toBe(t);
  });

  it('reports in a CRLF file at the same place', () => {
    const t = cell('status=ok').replace(/\n/g, '\r\n');
    expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[3, 25, 'ok']]);
  });

  describe('disable comments', () => {
    it('disable-line suppresses it', () => {
      const t = cell(`time=yesterday <!-- msglint-disable-line ${RULE} -->`);
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('a disable-line for a different line does not suppress it', () => {
      const t = file(`<!-- msglint-disable-line ${RULE} -->`, ...cell('time=yesterday').trimEnd().split('\n'));
      expect(check(t, { reportUnusedDisableDirectives: true }).map((f) => [f.ruleId, f.line])).toEqual([
        ['unused-disable', 1],
        [RULE, 4],
      ]);
    });
  });
});

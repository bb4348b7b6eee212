// duplicate-attribute: a key may appear once per metadata line (spec section 5).
import { describe, expect, it } from 'vitest';
import { check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'duplicate-attribute';
const cell = (meta: string) => file('# %% Question[^1]', '', meta, '', 'What is 2 + 2?');

describe('duplicate-attribute', () => {
  it('accepts distinct keys, and keys that differ in case', () => {
    expect(check(cell('[^1]: [markdown] history=summary summary="sum" Summary="other"'))).toEqual([]);
  });

  it('reports the second key and points to the first', () => {
    const t = cell('[^1]: [markdown] history=exclude history=include');
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 3, 34, 'history']]);
    expect(found[0]!.message).toBe('The key `history` appears twice on this metadata line.');
    expect(found[0]!.diagnostic.severity).toBe(2);
    const related = found[0]!.diagnostic.related![0]!;
    expect(related.message).toBe('First `history`');
    expect(related.range.start).toMatchObject({ line: 2, character: 17 });
  });

  it('reports each repetition', () => {
    const t = cell('[^1]: [markdown] x=1 x=2 x=3');
    expect(checkRule(RULE, t).map((f) => f.column)).toEqual([22, 26]);
  });

  it('finds repetitions the same way on a line with many keys', () => {
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}=1`);
    keys.push('k3=2', 'k19=2', 'k3=3');
    const found = checkRule(RULE, cell(`[^1]: [markdown] ${keys.join(' ')}`));
    expect(found.map((f) => [f.text, f.diagnostic.related![0]!.range.start.character])).toEqual([
      ['k3', 32],
      ['k19', 121],
      ['k3', 32],
    ]);
  });

  it('reports the same value twice too', () => {
    expect(checkRule(RULE, cell('[^1]: [markdown] time="2025-05-30T09:00:00Z" time="2025-05-30T09:00:00Z"')).map((f) => f.text)).toEqual(['time']);
  });

  it('counts a key inside brackets (metadata-syntax reports the brackets)', () => {
    const t = cell('[^1]: [markdown] history=exclude [history=include]');
    expect(check(t).map((f) => [f.ruleId, f.text])).toEqual([
      ['metadata-syntax', '[history=include]'],
      [RULE, 'history'],
    ]);
  });

  it('checks temporary agent lines', () => {
    const t = file('[^fast]: [agent] models="a" models="b"', '', '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.');
    expect(checkRule(RULE, t).map((f) => [f.line, f.text])).toEqual([[1, 'models']]);
  });

  it('does not check ordinary footnotes', () => {
    const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Text[^n].', '', '[^n]: [RFC] a=1 a=2');
    expect(check(t)).toEqual([]);
  });

  it('has no fix', () => {
    const t = cell('[^1]: [markdown] history=exclude history=include');
    expect(checkRule(RULE, t)[0]!.diagnostic.fix).toBeUndefined();
    expect(fixText(t)).toBe(t);
  });

  it('reports in a CRLF file at the same place', () => {
    const t = cell('[^1]: [markdown] x=1 x=2').replace(/\n/g, '\r\n');
    expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[3, 22, 'x']]);
  });

  describe('disable comments', () => {
    it('disable-line at the end of the line suppresses it', () => {
      const t = cell(`[^1]: [markdown] x=1 x=2 <!-- msglint-disable-line ${RULE} -->`);
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('an unused disable-line is reported with reportUnusedDisableDirectives', () => {
      const t = cell(`[^1]: [markdown] x=1 <!-- msglint-disable-line ${RULE} -->`);
      expect(check(t)).toEqual([]);
      expect(check(t, { reportUnusedDisableDirectives: true }).map((f) => [f.ruleId, f.text])).toEqual([['unused-disable', RULE]]);
    });
  });
});

// Root cause: a `history` value that is not valid (history-value). It counts
// as include, which may not be what was meant, so the pair it belongs to is
// not reported as split between the LLM view and the rest.
import { describe, expect, it } from 'vitest';
import { build, edit, findings } from './conversation.js';

describe('cascades of an invalid history value (history-value)', () => {
  it('on a tool call whose result is left out: no split pair', () => {
    const t = build({ call: edit('call', 'name="read_file"', 'name="read_file" history=exclde'), result: edit('result', 'status="success"', 'status="success" history=exclude') });
    expect(findings(t)).toEqual(['history-value 22:45 exclde']);
  });

  it('on a tool result whose call is left out: no split pair', () => {
    const t = build({ call: edit('call', 'name="read_file"', 'name="read_file" history=exclude'), result: edit('result', 'status="success"', 'status="success" history=include2') });
    expect(findings(t)).toEqual(['history-value 31:47 include2']);
  });

  it('still reports what stands on its own: a valid value that splits the pair', () => {
    const t = build({ call: edit('call', 'name="read_file"', 'name="read_file" history=exclude') });
    expect(findings(t).map((f) => f.split(' ')[0])).toEqual(['history-split-pair']);
  });
});

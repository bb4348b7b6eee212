// Valid files get no diagnostics at all: the spec's examples and generated
// realistic files. And the XML of a large file is read once per cell text.
import { describe, expect, it } from 'vitest';
import { lint, lintDocument, parseForLint } from '../../server/linter.js';
import { parse } from '../../server/syntax/document.js';
import { toolCallsOf } from '../../server/tool-calls/index.js';
import { generateMessageFile, SPEC_MD, SPEC_MSG } from '../llm-view/examples.js';
import { realisticFile, TOOL_RULES } from './helpers.js';

describe('valid files', () => {
  it('the spec examples get no diagnostics', () => {
    expect(lint(SPEC_MSG, { fileName: 'example.msg.md', reportUnusedDisableDirectives: true }).diagnostics).toEqual([]);
    expect(lint(SPEC_MD, { fileName: 'notes.md', reportUnusedDisableDirectives: true }).diagnostics).toEqual([]);
  });

  it('the file of the benchmark generator gets no diagnostics', () => {
    expect(lint(generateMessageFile(200), { fileName: 'bench.msg.md' }).diagnostics).toEqual([]);
  });

  it('a generated realistic file gets no diagnostics, in LF and CRLF', () => {
    const text = realisticFile(60);
    const doc = parse(text, { fileName: 'gen.msg.md' });
    expect(doc.cells.filter((c) => doc.kindOf(c) === 'tool-call').length).toBeGreaterThan(100);
    expect(lint(text, { fileName: 'gen.msg.md' }).diagnostics.map((d) => `${d.range.start.line + 1} ${d.ruleId}: ${d.message}`)).toEqual([]);
    const crlf = text.replace(/\n/g, '\r\n');
    expect(lint(crlf, { fileName: 'gen.msg.md' }).diagnostics.filter((d) => TOOL_RULES.includes(d.ruleId))).toEqual([]);
  });
});

describe('large files', () => {
  it('reads ~5,000 tool calls quickly, once per cell text', () => {
    const text = realisticFile(2500, 7);
    const doc = parseForLint(text, { fileName: 'big.msg.md' });
    const cells = doc.cells.filter((c) => c.parse.tools.length);
    expect(cells.length).toBeGreaterThan(4000);
    const t0 = performance.now();
    const first = cells.map((c) => toolCallsOf(c));
    const elapsed = performance.now() - t0;
    expect(elapsed).toBeLessThan(3000);
    // Same cell parse, same result object: no second reading.
    expect(cells.every((c, i) => toolCallsOf(c) === first[i])).toBe(true);
    // An edit elsewhere keeps the cell parses, and so the readings.
    const edited = parseForLint(text + '\n\nA new line.\n', { fileName: 'big.msg.md', previous: doc });
    const again = edited.cells.filter((c) => c.parse.tools.length);
    expect(again.slice(0, -1).every((c, i) => toolCallsOf(c) === first[i])).toBe(true);
    expect(lintDocument(edited).filter((d) => TOOL_RULES.includes(d.ruleId))).toEqual([]);
  });
});

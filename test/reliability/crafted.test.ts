// Issue 35, point 2: crafted but valid files that made rule and server paths
// superlinear, linted in-process at sizes that take seconds when the path is
// linear and minutes when it is quadratic (the generous timeouts bound the
// old behaviour; nothing here measures time). The generators are the
// benchmark's (bench/lib/crafted.mjs), whose growth section times n and 4n.

import { describe, expect, it } from 'vitest';
import { attributes, deepLists, deepQuotes, disableComments, emphasisRuns, inlineBreaks, lazyQuote, metadataLines, repeatedId, tallTable, temporaryAgents, unknownAgents, wideTable } from '../../bench/lib/crafted.mjs';
import type { Diagnostic } from '../../server/engine/types.js';
import { lint, lintDocument, parseForLint } from '../../server/linter.js';
import { fixAll } from '../../server/lsp/fix-all.js';

const LONG = 120_000;

/** How many problems diagnostics stand for: past the first 1,000 of a rule, one note counts the rest (Diagnostic.count). */
const problems = (list: readonly Diagnostic[]): number => list.reduce((n, d) => n + (d.count ?? 1), 0);

describe('rule paths', () => {
  it('unknown-agent: 4,000 unknown cells against 4,000 long agent names; did you mean skipped past its budget', () => {
    const diagnostics = lint(unknownAgents(4000)).diagnostics.filter((d) => d.ruleId === 'unknown-agent');
    expect(problems(diagnostics)).toBe(4000);
    // The last shown: the note that counts the rest follows it.
    expect(diagnostics.at(-2)!.message).toMatch(/is not a defined agent/);
    // 4,000 names of 103 letters for each cell: far past the budget, the messages stay and the suggestions go.
    expect(diagnostics.filter((d) => d.suggestions?.length)).toEqual([]);
    // A file of ordinary size keeps them.
    const small = lint(unknownAgents(10)).diagnostics.filter((d) => d.ruleId === 'unknown-agent');
    expect(small.map((d) => d.suggestions?.[0]?.desc)).toEqual(Array.from({ length: 10 }, (_, i) => `Change the type to the agent \`ag${'a'.repeat(100)}${i}\``));
  }, LONG);

  it('disable comments: 100,000 diagnostics and 100,000 directives', () => {
    const text = disableComments(100_000);
    const { diagnostics } = lint(text);
    expect(problems(diagnostics.filter((d) => d.ruleId === 'cell-id-missing'))).toBe(100_000);
    // Each directive still does its work: named on the line before the marker, the rule is suppressed.
    const named = text.replaceAll('disable-next-line attribute-value', 'disable-next-line cell-id-missing');
    expect(lint(named).diagnostics.filter((d) => d.ruleId === 'cell-id-missing')).toEqual([]);
  }, LONG);
});

describe('the language server’s fix-all and formatting', () => {
  it('composes 400,000 edits of one pass in one walk', () => {
    // Prose lines, and one synthetic fix per line (the real lint then finds nothing more to fix).
    const n = 400_000;
    const text = `# %% Start[^1]\n\n[^1]: [markdown]\n\n${'x\n'.repeat(n)}`;
    const doc = parseForLint(text, { fileName: 'a.msg.md', config: {} });
    const first = text.indexOf('x\n');
    const synthetic: Diagnostic[] = [];
    for (let i = 0; i < n; i++) {
      const at = first + 2 * i + 1;
      synthetic.push({ ruleId: 'cell-marker', severity: 2, message: 'm', range: doc.range(at, at), fix: { range: [at, at], text: 'y' } });
    }
    const result = fixAll(doc, synthetic, { fileName: 'a.msg.md', config: {} });
    expect(result.text).toBe(text.replaceAll('x\n', 'xy\n'));
    expect(result.edits).toHaveLength(n);
    expect(result.edits[1]).toEqual({ range: [first + 3, first + 3], text: 'y' });
  }, LONG);
});

// Each at a size the old paths took two minutes or more for (quadratic in n),
// and a few seconds now.
describe('parse paths', () => {
  it('150,000 temporary agents, each answering in the next cell', () => {
    const { diagnostics } = lint(temporaryAgents(150_000), { fileName: 'a.msg.md' });
    expect(diagnostics).toEqual([]);
  }, LONG);

  it('200,000 cells with one id', () => {
    const { diagnostics } = lint(repeatedId(200_000), { fileName: 'a.msg.md' });
    expect(problems(diagnostics.filter((d) => d.ruleId === 'duplicate-id'))).toBe(199_999);
    // The last shown: the note that counts the rest follows it.
    expect(diagnostics.filter((d) => d.ruleId === 'duplicate-id').at(-2)!.message).toBe('The id `2` is already used by the cell on line 7.');
  }, LONG);

  it('300,000 metadata lines in one cell', () => {
    const { diagnostics } = lint(metadataLines(300_000), { fileName: 'a.msg.md' });
    expect(problems(diagnostics.filter((d) => d.ruleId === 'metadata-unused'))).toBe(300_000);
  }, LONG);

  it('one metadata line with 1,000,000 attributes', () => {
    const doc = parseForLint(attributes(1_000_000), { fileName: 'a.msg.md' });
    expect(doc.metadataOf(doc.cells[0]!)!.node.attributes).toHaveLength(1_000_000);
    expect(lintDocument(doc)).toEqual([]);
    // The old path took 78 s here (quadratic), this one about 2 s: a minute separates them.
  }, 60_000);

  it('typing in a file with 100,000 temporary agents', () => {
    // Each lint compared an environment naming every agent once per cell.
    const text = temporaryAgents(100_000);
    let doc = parseForLint(text, { fileName: 'a.msg.md' });
    lintDocument(doc);
    let current = text;
    let at = text.indexOf('Said.', text.length >> 1);
    for (let k = 0; k < 3; k++) {
      current = current.slice(0, at) + 'x' + current.slice(at);
      doc = parseForLint(current, { fileName: 'a.msg.md', previous: doc, edit: { start: at, oldEnd: at, text: 'x' } });
      expect(lintDocument(doc)).toEqual([]);
      at++;
    }
    expect(current).toContain('xxxSaid.');
  }, LONG);

  it('typing in a cell with 100,000 metadata lines', () => {
    // The editor's re-lint gathered the cells and lines of the roots an edit touches by
    // concatenation, once per root: each of these lines is a root of its own (60 s a keystroke).
    const text = metadataLines(100_000);
    let doc = parseForLint(text, { fileName: 'a.msg.md' });
    lintDocument(doc);
    let current = text;
    // In the last line's attribute value, before its closing quote.
    let at = text.length - 2;
    for (let k = 0; k < 3; k++) {
      current = current.slice(0, at) + 'x' + current.slice(at);
      doc = parseForLint(current, { fileName: 'a.msg.md', previous: doc, edit: { start: at, oldEnd: at, text: 'x' } });
      expect(doc.edit?.replaced).toBeDefined();
      expect(problems(lintDocument(doc).filter((d) => d.ruleId === 'metadata-unused'))).toBe(100_000);
      at++;
    }
    expect(current.endsWith('a="bxxx"\n')).toBe(true);
  }, LONG);
});

// Issue 46, point 1: remark's reading of an ordinary .md file's headings, at
// sizes that took remark minutes (or overflowed the stack), and read now in
// a second or two: remark reads no inline construct and no table cell, and
// past its budget (containers nested deep, lazy lines) the line-based
// reading takes over (server/syntax/format/headings.ts).
describe('ordinary .md files: the headings', () => {
  const read = (text: string) => {
    const doc = parseForLint(text, { fileName: 'notes.md' });
    return { headings: doc.section!.headings.map((h) => h.text), byLines: doc.section!.reading!.linesFrom !== -1, doc };
  };

  // Past the budget (the last three), read line by line: no stack overflow, the same two headings.
  it.each([
    ['emphasis opened and closed 8,000 times in one paragraph (112 kB)', () => emphasisRuns(8000), false],
    ['a table of 16,000 columns', () => wideTable(16_000), false],
    ['a table of 20,000 rows', () => tallTable(20_000), false],
    ['a paragraph of 80,000 lines with `&`, `<` and `!` in each', () => inlineBreaks(80_000), false],
    ['100,000 block quotes nested on one line', () => deepQuotes(100_000), true],
    ['100,000 list items nested on one line', () => deepLists(100_000), true],
    ['a quoted paragraph of 100,000 lazy lines', () => lazyQuote(100_000), true],
  ])('%s', (_, make, pastBudget) => {
    const { headings, byLines, doc } = read(make());
    expect(headings).toEqual(['Notes', 'Discussion']);
    expect(byLines).toBe(pastBudget);
    expect(lintDocument(doc)).toEqual([]);
  }, LONG);
});

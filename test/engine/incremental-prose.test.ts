// Typing in the prose of a message cell: the editor's path replaces the one
// cell (DocumentEdit.replaced), the whole path shares the file-wide facts
// (sameFacts), and the findings of what the edit did not touch are moved.
// Whatever path is taken, the facts and the diagnostics must equal those of
// a fresh parse and lint.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lint, lintDocument, parseForLint } from '../../server/linter.js';
import type { MessageDocument } from '../../server/syntax/document.js';

const read = (p: string) => readFileSync(fileURLToPath(new URL(p, import.meta.url)), 'utf8');

// Findings of many cross-cell rules (the showcase), and an agent with a tiny
// context window, so that typing changes which replies exceed it.
const base =
  read('../fixtures/showcase.msg.md').replace('context_window: 128000', 'context_window: 60') +
  '\n# %% Ask again[^50]\n\n[^50]: [markdown]\n\nA short question.\nSee the note[^51] too.\n\n' +
  '[^51]: [raw] a footnote, or metadata?\n\n# %%% Reply[^52]\n\n[^52]: [coder]\n\nAn answer.\n\n' +
  '## %%% Call[^52.abc12]\n\n[^52.abc12]: [tool] name="read"\n\n<tool>\n<tool_name>read</tool_name>\n<arguments><path>a.txt</path></arguments>\n</tool>\n\n' +
  '### %%% Result[^52.abc12.1]\n\n[^52.abc12.1]: [tool] status="success"\n\nFile contents here.\n\n' +
  '# %% Third[^53]\n\n[^53]: [markdown] history=exclude\n\nLeft out of the view.\n';

/** Offsets of the starts of the plain prose lines, or of the blank lines (candidates for typing). */
function proseLines(text: string, blank = false): number[] {
  const out: number[] = [];
  let at = 0;
  for (const line of text.split('\n')) {
    if (blank ? line === '' : /^[A-Z][A-Za-z ,.]*$/.test(line)) out.push(at);
    at += line.length + 1;
  }
  return out;
}

/** The file-wide facts of a document, by offsets (comparable across parses). */
function facts(doc: MessageDocument) {
  return {
    cells: doc.cells.map((c) => {
      const m = doc.metadataOf(c);
      return [doc.offsetOf(c), doc.endOf(c), doc.kindOf(c), c.id, m ? doc.abs(m.segment, m.node.span) : null];
    }),
    ids: [...doc.cellsById].map(([id, cells]) => [id, cells.map((c) => doc.offsetOf(c))]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1)), // ids in no particular order
    metadata: doc.metadata.map((m) => doc.abs(m.segment, m.node.span)),
    agents: doc.agents.map((a) => [a.name, a.source, a.at, a.from]),
    languages: [...doc.codeLanguages].sort(),
    lines: [doc.lines.lineCount, doc.lines.starts],
  };
}

describe('typing in prose', () => {
  it('keeps facts and diagnostics equal to a fresh parse and lint', () => {
    let fast = 0;
    let fastLines = 0;
    let all = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            line: fc.nat(),
            column: fc.double({ min: 0, max: 1, noNaN: true }),
            del: fc.integer({ min: 0, max: 3 }),
            // Now and then on a blank line (typing the first letter of a new line).
            blank: fc.integer({ min: 0, max: 4 }),
            ins: fc.constantFrom('x', 'word ', '', ' and more', 'Q', '[^50]', '<', '\n', '\nNew line.'),
            // As an editor does: say what changed (parsed from the edited cell alone when it can be).
            hinted: fc.boolean(),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (edits) => {
          let text = base;
          const config = { rules: {} };
          let doc = parseForLint(text, { fileName: 'a.msg.md', config });
          lintDocument(doc, { config, reportUnusedDisableDirectives: true });
          for (const e of edits) {
            const lines = proseLines(text, e.blank === 0);
            const start = lines[e.line % lines.length]!;
            const end = text.indexOf('\n', start);
            const at = start + Math.floor(e.column * (end - start));
            const oldEnd = Math.min(end, at + e.del);
            text = text.slice(0, at) + e.ins + text.slice(oldEnd);
            const edit = e.hinted ? { start: at, oldEnd, text: e.ins } : undefined;
            doc = parseForLint(text, { fileName: 'a.msg.md', config, previous: doc, edit });
            all++;
            if (doc.edit?.replaced) fast++;
            if (!!doc.edit?.replaced && /\n/.test(e.ins)) fastLines++;
            const incremental = lintDocument(doc, { config, reportUnusedDisableDirectives: true });
            const fresh = parseForLint(text, { fileName: 'a.msg.md', config });
            expect(facts(doc)).toEqual(facts(fresh));
            expect(incremental).toEqual(lint(text, { fileName: 'a.msg.md', config, reportUnusedDisableDirectives: true }).diagnostics);
          }
        },
      ),
      { numRuns: 200 },
    );
    // The test is about the fast path: most of these edits must take it.
    expect(fast / all).toBeGreaterThan(0.4);
    // Lines split or joined by typing too.
    expect(fastLines).toBeGreaterThan(20);
  });

  it("with the edit's range, the editor's path replaces the one cell a letter or Enter is typed in", () => {
    const config = {};
    const doc = parseForLint(base, { fileName: 'a.msg.md', config });
    const own = base.indexOf('Left out of the view.') + 1;
    const typed = parseForLint(base.slice(0, own) + 'x' + base.slice(own), { fileName: 'a.msg.md', config, previous: doc, edit: { start: own, oldEnd: own, text: 'x' } });
    expect(typed.edit?.replaced).toMatchObject({ removed: 1, added: 1 });
    // Without it, the whole path: no edit to reuse findings from but each cell parse's own.
    expect(parseForLint(base.slice(0, own) + 'x' + base.slice(own), { fileName: 'a.msg.md', config, previous: doc }).edit).toBeUndefined();
    // Enter inside a prose line, or at its end, replaces that cell alone.
    const at = base.indexOf('A short question.') + 1;
    for (const where of [at, base.indexOf('A short question.') + 'A short question.'.length]) {
      const edit = { start: where, oldEnd: where, text: '\n' };
      const split = parseForLint(base.slice(0, where) + '\n' + base.slice(where), { fileName: 'a.msg.md', config, previous: doc, edit });
      expect(!!split.edit?.replaced).toBe(true);
      expect(split.edit?.replaced).toMatchObject({ removed: 1, added: 1 });
    }
  });
});

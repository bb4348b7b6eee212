// Per-cell values (Rule.perCell, server/engine/cell-values.ts): a version
// parsed from the previous one takes the previous values of the cells the
// edit did not change, and computes the others; the fold over them gives
// what a fresh lint gives, after a prose edit, a structural edit, a paste
// and an edit of the agents, as an editor sends them and without the edit.
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cellValues } from '../../server/engine/cell-values.js';
import { createLinter } from '../../server/engine/linter.js';
import { parseForLint } from '../../server/engine/lint.js';
import { defineFoldRule, defineRule } from '../../server/engine/rule-kit.js';
import type { Cell, MessageDocument } from '../../server/syntax/document.js';
import type { Diagnostic } from '../../server/engine/types.js';

vi.stubEnv('MSGLINT_CHECK_INCREMENTAL', '1');
afterAll(() => {
  vi.unstubAllEnvs();
});

const meta = (id: string) => ({ id, group: 'llm-view' as const, severity: 'warning' as const, fixable: null, description: id });

/** The cells of `watched` whose value was computed, by their id (not those of the fresh lints the test and MSGLINT_CHECK_INCREMENTAL make). */
let computed: string[] = [];
let watched: MessageDocument | undefined;

/** Per cell its words, its kind and type, and whether an agent named `tiny` exists; the fold reports each cell's running total. */
function wordsOf(cell: Cell, doc: MessageDocument) {
  if (doc === watched) computed.push(cell.id!);
  return { words: cell.text.split(/\s+/).filter(Boolean).length, kind: `${doc.kindOf(cell)}/${doc.typeOf(cell)}`, tiny: doc.hasAgent('tiny') };
}
/** How many runs of values were summarized. */
let summarized = 0;
function wordsIn(values: readonly { words: number }[]): number {
  summarized++;
  let n = 0;
  for (const v of values) n += v.words;
  return n;
}
const running = defineFoldRule(meta('running-words'), [wordsOf], ({ doc, report, cellValues }) => {
  const values = cellValues(wordsOf);
  // The same total from the runs' summaries: at the start of the file.
  report({ at: [0, 0], message: `${values.length} cells, ${values.summaries(wordsIn).reduce((a, b) => a + b, 0)} words` });
  let total = 0;
  values.forEach((v, i) => {
    total += v.words;
    const at = doc.offsetOf(doc.cells[i]!);
    report({ at: [at, at + 1], message: `${v.kind}${v.tiny ? ' tiny' : ''} ${total}` });
  });
});
const linter = createLinter([running]);

const cell = (id: string, prose: string, type = 'markdown') => `# %% ${id}[^${id}]\n\n[^${id}]: [${type}]\n\n${prose}\n\n`;
const front = '---\nagents:\n  coder: {}\n---\n\n';
const base = front + ['a', 'b', 'c', 'd', 'e'].map((id) => cell(id, `Words of ${id} here.`)).join('');

const key = (ds: Diagnostic[]) => ds.map((d) => `${d.range.start.offset} ${d.message}`);
const fresh = (text: string) => key(linter.lint(text, { fileName: 'a.msg.md' }).diagnostics);

/** `text` with [start, oldEnd) replaced, and the editor's edit. */
function edited(text: string, find: string, replaceWith: string, after = 0) {
  const start = text.indexOf(find, after);
  expect(start).toBeGreaterThanOrEqual(0);
  return { next: text.slice(0, start) + replaceWith + text.slice(start + find.length), edit: { start, oldEnd: start + find.length, text: replaceWith } };
}

/** Lints `base`, then each edit in turn as an editor does (with the edit's range) or not; per version the cells computed and whether it equals a fresh lint. */
function versions(edits: [string, string][], editor: boolean) {
  let text = base;
  let doc = parseForLint(text, { fileName: 'a.msg.md' });
  linter.lintDocument(doc);
  const out: { computed: string[]; same: boolean }[] = [];
  for (const [find, replaceWith] of edits) {
    const { next, edit } = edited(text, find, replaceWith);
    computed = [];
    doc = watched = parseForLint(next, editor ? { fileName: 'a.msg.md', previous: doc, edit } : { fileName: 'a.msg.md', previous: doc });
    const found = key(linter.lintDocument(doc));
    out.push({ computed, same: JSON.stringify(found) === JSON.stringify(fresh(next)) });
    text = next;
  }
  return out;
}

const EDITS: [string, string][] = [
  ['Words of b here.', 'Words of b are here now.'], // prose
  ['Words of c here.', 'Words of c.\n\n# %% x[^x]\n\n[^x]: [markdown]\n\nSplit off here.'], // a marker typed: a cell split in two
  ['# %% e', cell('p', 'Pasted one.') + cell('q', 'Pasted two, three words.') + '# %% e'], // a paste of two cells
  ['Words of d here.', ''], // a cell's prose deleted
  ['coder: {}', 'coder: {}\n  tiny: {}'], // the agents: every value again
];

describe('per-cell values', () => {
  it('are made for every cell of a version linted first', () => {
    computed = [];
    linter.lintDocument((watched = parseForLint(base, { fileName: 'a.msg.md' })));
    expect(computed).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('are made again only for the cells an edit changed, as an editor edits', () => {
    const out = versions(EDITS, true);
    expect(out.map((v) => v.same)).toEqual([true, true, true, true, true]);
    expect(out.map((v) => v.computed.sort())).toEqual([
      ['b'],
      ['c', 'x'],
      // The cell the paste went into is scanned again (splice.ts), and made again.
      ['e', 'p', 'q'],
      ['d'],
      // An edit of the agents: every value again.
      ['a', 'b', 'c', 'd', 'e', 'p', 'q', 'x'],
    ]);
  });

  it("are made again for every cell without the edit's range (the whole path)", () => {
    const out = versions(EDITS, false);
    expect(out.map((v) => v.same)).toEqual([true, true, true, true, true]);
    expect(out.map((v) => v.computed.length)).toEqual([5, 6, 8, 8, 8]);
  });

  it('are made again for a kept cell whose metadata line the edit added elsewhere (a refreshed cell)', () => {
    // `r` has no metadata line; a cell typed after it holds one for `r`, which gives `r` its type.
    const text = front + cell('a', 'Hi.') + '# %% r[^r]\n\nResult text.\n\n' + cell('b', 'Later.');
    let doc = parseForLint(text, { fileName: 'a.msg.md' });
    const before = key(linter.lintDocument(doc));
    const { next, edit } = edited(text, '# %% b', '# %% x[^x]\n\n[^x]: [markdown]\n\n[^r]: [raw]\n\n# %% b');
    computed = [];
    doc = watched = parseForLint(next, { fileName: 'a.msg.md', previous: doc, edit });
    const after = key(linter.lintDocument(doc));
    expect(computed.sort()).toEqual(['b', 'r', 'x']);
    const r = `${text.indexOf('# %% r')} `;
    expect([before.find((m) => m.startsWith(r)), after.find((m) => m.startsWith(r))]).toEqual([`${r}message/undefined 11`, `${r}message/raw 11`]);
    expect(after).toEqual(fresh(next));
  });

  it('equal a fresh lint after random edits of a file of many chunks of values', () => {
    // 700 cells: values are kept in chunks of 256, and edits cross their ends.
    let text = front + Array.from({ length: 700 }, (_, i) => cell(`c${i}`, `Words ${'w '.repeat(i % 7)}end.`)).join('');
    let doc = parseForLint(text, { fileName: 'a.msg.md' });
    linter.lintDocument(doc);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('prose', 'paste', 'delete'), fc.nat(), fc.integer({ min: 1, max: 300 })), { minLength: 1, maxLength: 12 }), (steps) => {
        for (const [kind, at, n] of steps) {
          const starts = [...text.matchAll(/^# %% /gm)].map((m) => m.index!);
          const k = at % starts.length;
          let edit: { start: number; oldEnd: number; text: string };
          if (kind === 'prose') {
            const start = text.indexOf('end.', starts[k]);
            edit = { start, oldEnd: start, text: 'more ' };
          } else if (kind === 'paste') {
            edit = { start: starts[k]!, oldEnd: starts[k]!, text: Array.from({ length: n }, (_, i) => cell(`p${at}x${i}`, 'Pasted words.')).join('') };
          } else {
            // n cells from the k-th deleted, one left at least.
            const end = starts[Math.min(k + n, starts.length - 1)]!;
            if (k + 1 >= starts.length) continue;
            edit = { start: starts[k]!, oldEnd: end, text: '' };
          }
          text = text.slice(0, edit.start) + edit.text + text.slice(edit.oldEnd);
          computed = [];
          doc = watched = parseForLint(text, { fileName: 'a.msg.md', previous: doc, edit });
          // Whether the parser followed the edit (an edit on the first cell's marker line takes the whole path: then every value is made).
          const followed = !!doc.edit?.replaced;
          const refreshed = doc.edit?.replaced?.refreshed.length ?? 0;
          expect(key(linter.lintDocument(doc))).toEqual(fresh(text));
          // The edited cell, the pasted ones and the one the paste went into, or the cell the deletion ended in;
          // and the cells of the ids they name (a paste may repeat an earlier paste's ids).
          if (followed) expect(computed.length).toBeLessThanOrEqual((kind === 'paste' ? n + 1 : 1) + refreshed);
          if (kind === 'prose') expect(followed).toBe(true);
        }
      }),
      { numRuns: 8 },
    );
  });

  it('share the runs the edit did not touch, and their summaries', () => {
    // Seven words a cell (marker and metadata line included).
    const text = front + Array.from({ length: 700 }, (_, i) => cell(`c${i}`, 'Some words.')).join('');
    const first = parseForLint(text, { fileName: 'a.msg.md' });
    const asked = (doc: MessageDocument) => cellValues(doc, wordsOf, [wordsOf]).values;
    summarized = 0;
    expect(asked(first).summaries(wordsIn)).toEqual([1792, 1792, 1316]);
    expect(summarized).toBe(3);
    // Prose typed in cell 300 (the second run of 256).
    const typed = edited(text, 'Some words.', 'Some more words.', text.indexOf('# %% c300['));
    const second = parseForLint(typed.next, { fileName: 'a.msg.md', previous: first, edit: typed.edit });
    summarized = 0;
    expect(asked(second).summaries(wordsIn)).toEqual([1792, 1793, 1316]);
    expect(summarized).toBe(1);
    // Two cells pasted before cell 10: the first run made again (two runs now), the others shared.
    const pasted = edited(typed.next, '# %% c10[', cell('p', 'One.') + cell('q', 'Two.') + '# %% c10[');
    const third = parseForLint(pasted.next, { fileName: 'a.msg.md', previous: second, edit: pasted.edit });
    summarized = 0;
    const sums = asked(third).summaries(wordsIn);
    expect(sums.reduce((a, b) => a + b, 0)).toBe(700 * 7 + 1 + 2 * 6);
    expect(summarized).toBe(2);
    expect(asked(third).length).toBe(702);
  });

  it('of a version are not changed by the versions parsed from it (a version is a value)', () => {
    const first = parseForLint(base, { fileName: 'a.msg.md' });
    const before = key(linter.lintDocument(first));
    let doc: MessageDocument = first;
    for (const [find, replaceWith] of EDITS.slice(0, 4)) {
      const { next } = edited(doc.text, find, replaceWith);
      doc = parseForLint(next, { fileName: 'a.msg.md', previous: doc });
      linter.lintDocument(doc);
    }
    expect(key(linter.lintDocument(first))).toEqual(before);
  });

  it('are asked for by the check of a rule that declares the function, and no other', () => {
    const asks = defineRule(meta('asks'), ({ cellValues }) => {
      cellValues(wordsOf);
    });
    const [d] = createLinter([asks]).lint(base, { fileName: 'a.msg.md' }).diagnostics;
    expect(d!.message).toMatch(/Internal error in rule 'asks': cellValues is for the cross-cell check of a rule that declares the function in perCell/);
  });
});

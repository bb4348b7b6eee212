// A version is a value, literally: nothing reachable from a version is
// written after `parse` returns it. Each kept version is frozen deep
// (Object.freeze on every object it reaches), then the next version is
// parsed from it and every version is linted, exported and asked what the
// language server asks: a write to a frozen object throws (ES modules are
// strict), naming what was written.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportText, lintDocument, parse, toLLMView, type MessageDocument } from '../../server/index.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { MEMO } from '../../server/base/memo.js';
import { viewBudget } from '../../server/llm-view/budget.js';
import { codeLenses } from '../../server/lsp/code-lenses.js';
import { foldingRanges } from '../../server/lsp/folding.js';
import { describeCell } from '../../server/lsp/hover.js';
import { budgetHints } from '../../server/lsp/inlay-hints.js';
import { semanticTokens } from '../../server/lsp/semantic-tokens.js';
import { documentSymbols } from '../../server/lsp/symbols.js';

const example = readFileSync(fileURLToPath(new URL('../../examples/coding-session.msg.md', import.meta.url)), 'utf8');

/**
 * Freezes `root` and everything it reaches through own properties and array
 * items (not Map or Set contents). The memo slots (base/memo.ts: derived
 * values kept on the object they are derived from, as a WeakMap would keep
 * them beside it) are made first and left open: a memo is not the value.
 */
/**
 * Every field of a version's objects is final when parse returns: what is
 * made on first use lives in memo slots, and a ChunkedList's chunk keeps
 * its derived values in a Map made with it (Map contents are not frozen).
 */
function deepFreeze(root: object): void {
  const seen = new Set<object>();
  const stack: object[] = [root];
  while (stack.length) {
    const o = stack.pop()!;
    if (seen.has(o)) continue;
    seen.add(o);
    // A typed array cannot be frozen (its items are not properties); the line tables hold numbers in them.
    if (ArrayBuffer.isView(o)) continue;
    // With room for every slot: a memo array too short is replaced by a longer one (base/memo.ts), which a frozen object cannot take.
    if (MEMO in o && !Object.isFrozen(o)) {
      const memo = ((o as Record<symbol, unknown>)[MEMO] as unknown[] | undefined) ?? [];
      (o as Record<symbol, unknown>)[MEMO] = memo.concat(new Array<undefined>(Math.max(0, 64 - memo.length)).fill(undefined));
    }
    Object.freeze(o);
    for (const key of Reflect.ownKeys(o)) {
      if (key === MEMO) continue;
      const v = (o as Record<string | symbol, unknown>)[key];
      if (v !== null && (typeof v === 'object' || typeof v === 'function') && !seen.has(v as object)) stack.push(v as object);
    }
  }
}

/** What the language server asks of a version: tokens, folds, symbols, lenses, hovers and inlay hints. */
function languageServerFeatures(doc: MessageDocument): void {
  const text = TextDocument.create('file:///a.msg.md', 'markdown', 1, doc.text);
  const asked = [
    semanticTokens(doc, text).data.length,
    foldingRanges(doc, text).length,
    documentSymbols(doc, text).length,
    codeLenses(doc, text, 'file:///a.msg.md', { showDocument: true }).length,
    budgetHints(doc, text, viewBudget(doc), 0, doc.cellCount, 'all').length,
  ];
  for (const cell of doc.cells) describeCell(doc, cell);
  // An edit may leave no cell, and then nothing to show: otherwise each feature answers something.
  if (doc.cellCount > 2) expect(asked.every((n) => n > 0), `answers ${asked}`).toBe(true);
}

const pieces = ['```\n', '<!--', '-->', '<tool>', '</tool>', '# %% [^9]\n', '# %%% [^2.abcd]\n', '\n', 'x', '%', '[^1]: [markdown]\n', '[^2]', '---\n', 'status="error"'];
const edit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  del: fc.oneof(fc.constantFrom(0, 1), fc.integer({ min: 0, max: 60 })),
  ins: fc.array(fc.constantFrom(...pieces), { maxLength: 3 }).map((a) => a.join('')),
});

describe('a version is a value, literally', () => {
  it('a version frozen deep is parsed from, linted, exported and served to an editor without a write', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 6 }), (edits) => {
        let text = example;
        let doc: MessageDocument = parse(text, { fileName: 'a.msg.md' });
        const kept: { doc: MessageDocument; diagnostics: unknown }[] = [];
        for (const e of edits) {
          const diagnostics = lintDocument(parse(text, { fileName: 'a.msg.md' })).map((d) => [d.ruleId, d.range.start.offset, d.message]);
          deepFreeze(doc);
          kept.push({ doc, diagnostics });
          const at = Math.floor(e.at * text.length);
          const oldEnd = Math.min(text.length, at + e.del);
          text = text.slice(0, at) + e.ins + text.slice(oldEnd);
          doc = parse(text, { fileName: 'a.msg.md', previous: doc, edit: { start: at, oldEnd, text: e.ins } });
        }
        for (const [i, v] of kept.entries()) {
          expect(lintDocument(v.doc).map((d) => [d.ruleId, d.range.start.offset, d.message]), `version ${i}`).toEqual(v.diagnostics);
          exportText(toLLMView(v.doc), 'context-json');
          languageServerFeatures(v.doc);
        }
      }),
      { numRuns: 40 },
    );
  });
});

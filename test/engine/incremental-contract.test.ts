// The incremental contract check (MSGLINT_CHECK_INCREMENTAL=1): a rule whose
// findings depend on more than it declares makes an incremental lint differ
// from a full one, and the check names it. The rules here break the
// contract on purpose; the built-in ones are checked by the incremental tests,
// which run with the check on.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLinter } from '../../server/engine/linter.js';
import { parseForLint } from '../../server/engine/lint.js';
import { defineRootRule, defineRule, defineSegmentRule } from '../../server/engine/rule-kit.js';
import type { RuleMeta } from '../../server/engine/types.js';
import { editBetween } from '../helpers.js';

const meta = (id: string, more: Partial<RuleMeta> = {}) => ({ id, group: 'structure' as const, severity: 'warning' as const, fixable: null, description: id, ...more });

/** Counts the words of the whole text: a whole-document check that reads prose. */
const words = defineRule(meta('counts-words'), ({ doc, report }) => {
  report({ at: [0, 1], message: `${doc.text.split(/\s+/).filter(Boolean).length} words` });
});

/** A segment check that reads the number of cells: more than its segment. */
const cells = defineSegmentRule(meta('counts-cells'), (segment, { doc, report }) => {
  if (segment.kind !== 'cell') return;
  const at = doc.offsetOf(segment);
  report({ at: [at, at + 1], message: `one of ${doc.cells.length} cells` });
});

const cell = (id: number, prose: string) => `# %% C${id}[^${id}]\n\n[^${id}]: [markdown]\n\n${prose}\n\n`;
const base = cell(1, 'Hello world.') + cell(2, 'Second.');

/** Lints `texts` in turn, each version parsed from the previous one with the edit's range, as an editor would. */
function edits(linter: ReturnType<typeof createLinter>, texts: string[]) {
  let doc = parseForLint(texts[0]!, { fileName: 'a.msg.md' });
  let diagnostics = linter.lintDocument(doc);
  for (const text of texts.slice(1)) {
    doc = parseForLint(text, { fileName: 'a.msg.md', previous: doc, edit: editBetween(doc.text, text) });
    diagnostics = linter.lintDocument(doc);
  }
  return diagnostics.map((d) => d.message);
}

const typed = base.replace('Hello world.', 'Hello new world.');
const added = base + cell(3, 'Third.');

describe('incremental contract check', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('runs a whole-document check again after an edit of prose, with nothing to declare', () => {
    vi.stubEnv('MSGLINT_CHECK_INCREMENTAL', '1');
    expect(edits(createLinter([words]), [base, typed])).toEqual(['14 words']);
  });

  it('names a segment check whose cached findings depend on other cells', () => {
    expect(edits(createLinter([cells]), [base, added])).toContain('one of 2 cells');
    vi.stubEnv('MSGLINT_CHECK_INCREMENTAL', '1');
    expect(() => edits(createLinter([cells, words]), [base, added])).toThrow(/in rule 'counts-cells';/);
  });

  it('names a rule of id roots that reads other roots', () => {
    // Declares its findings per root, but each says how many cells the whole file has.
    let scoped = 0;
    const counts = (roots?: 'roots') =>
      (roots ? defineRootRule : defineRule)(meta('counts-all-cells'), ({ doc, cells, report }) => {
        if (cells.length < doc.cells.length) scoped++;
        for (const c of cells) {
          const at = doc.offsetOf(c);
          report({ at: [at, at + 1], message: `${c.id}: one of ${doc.cells.length} cells` });
        }
      });
    const far = cell(1, 'Hello world.') + cell(2, 'Second.') + cell(3, 'Third.');
    const farAdded = far + cell(4, 'Fourth.');
    // Without the check the finding of cell 1 stands unchanged: cell 4 touches roots 4 and 3 (its neighbour) only.
    expect(edits(createLinter([counts('roots')]), [far, farAdded])).toContain('1: one of 3 cells');
    expect(scoped).toBe(1);
    vi.stubEnv('MSGLINT_CHECK_INCREMENTAL', '1');
    expect(() => edits(createLinter([counts('roots')]), [far, farAdded])).toThrow(/in rule 'counts-all-cells'; only incremental: .*1: one of 3 cells.*only full: .*one of 4 cells/);
    // A whole-document check runs whole after every edit.
    expect(edits(createLinter([counts()]), [far, farAdded])).toContain('1: one of 4 cells');
  });

  it('passes a rule of id roots that keeps the contract, run over the touched roots only', () => {
    vi.stubEnv('MSGLINT_CHECK_INCREMENTAL', '1');
    const seen: number[] = [];
    const perRoot = defineRootRule(meta('cells-of-root'), ({ doc, cells, report }) => {
      seen.push(cells.length);
      for (const c of cells) {
        const at = doc.offsetOf(c);
        report({ at: [at, at + 1], message: `${c.id} of ${doc.cellsById.get(c.id!)!.length}` });
      }
    });
    const far = cell(1, 'Hello world.') + cell(2, 'Second.') + cell(3, 'Third.');
    expect(edits(createLinter([perRoot]), [far, far + cell(4, 'Fourth.')])).toEqual(['1 of 1', '2 of 1', '3 of 1', '4 of 1']);
    // A whole run over three cells, then roots 3 and 4, then the check's full lint.
    expect(seen).toEqual([3, 2, 4]);
  });

  it('is quiet for rules that keep the contract, and off without the variable', () => {
    vi.stubEnv('MSGLINT_CHECK_INCREMENTAL', '1');
    expect(edits(createLinter([words]), [base, typed, added])).toEqual(['19 words']);
    vi.stubEnv('MSGLINT_CHECK_INCREMENTAL', '');
    expect(() => edits(createLinter([cells]), [base, added])).not.toThrow();
  });
});

describe('createLinter', () => {
  it('refuses two rules with one id', () => {
    expect(() => createLinter([words, words])).toThrow("Two rules have the id 'counts-words'.");
  });

  it('runs only the rules it was given', () => {
    const linter = createLinter([words]);
    expect(linter.rules.map((r) => r.meta.id)).toEqual(['counts-words']);
    expect(linter.getRule('cell-marker')).toBeUndefined();
    expect(linter.lint('# %% [^1]\n\n[^1]: [bogus]\n', { fileName: 'a.msg.md' }).diagnostics.map((d) => d.ruleId)).toEqual(['counts-words']);
  });
});

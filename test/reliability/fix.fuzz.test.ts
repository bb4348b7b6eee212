// Fixes on real and generated message files with random mutations:
//  - every suggestion, applied alone, gives a text that parses and lints;
//  - every fix changes the text (a fix that changes nothing would be offered forever);
//  - one fix applied alone removes its finding: the same rule no longer
//    reports the same message at the same (shifted) place;
//  - applying all fixes (lintAndFix, as --fix does) gives a text that parses
//    losslessly, whose diagnostics are those of a fresh lint and carry no fix
//    any more (so nothing fixable is left behind), and a second pass changes
//    nothing.
// Fixes of different rules may overlap; lintAndFix then applies the first and
// leaves the other for the next pass, which is why "gone" is asserted per fix
// applied alone and "nothing fixable left" after the whole run.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lint, lintAndFix } from '../../server/linter.js';
import type { Diagnostic, TextEdit } from '../../server/engine/types.js';
import { parse } from '../../server/syntax/document.js';
import { corpus, expectLossless, expectSaneDiagnostics, messageFile, mutatedFile, runs, show } from './gen.js';

const fileNameFor = (text: string) => (/message_section/.test(text) ? 'fix.md' : 'fix.msg.md');

function apply(text: string, edit: TextEdit): string {
  return text.slice(0, edit.range[0]) + edit.text + text.slice(edit.range[1]);
}

/** Where an offset of the text before `edit` is in the text after it. */
function shifted(offset: number, edit: TextEdit): number {
  const [a, b] = edit.range;
  if (offset < a) return offset;
  if (offset >= b) return offset + edit.text.length - (b - a);
  return a;
}

function describeFix(d: Diagnostic): string {
  return `${d.ruleId} at ${d.range.start.offset} (${d.message}), fix ${JSON.stringify(d.fix)}`;
}

/** Checks each fix of `text` on its own. */
function checkEachFix(text: string): void {
  const fileName = fileNameFor(text);
  const diagnostics = lint(text, { fileName }).diagnostics;
  for (const d of diagnostics) {
    // Suggestions are never applied automatically, but an editor applies them one at a time.
    for (const s of d.suggestions ?? []) {
      const suggested = apply(text, s.fix);
      expectLossless(parse(suggested, { fileName }), suggested);
      expectSaneDiagnostics(suggested, lint(suggested, { fileName }).diagnostics);
    }
    if (!d.fix) continue;
    const [a, b] = d.fix.range;
    expect(text.slice(a, b), `a fix that changes nothing: ${describeFix(d)} in ${show(text)}`).not.toBe(d.fix.text);
    const after = apply(text, d.fix);
    const doc = parse(after, { fileName });
    expectLossless(doc, after);
    const again = lint(after, { fileName }).diagnostics;
    expectSaneDiagnostics(after, again);
    const at = shifted(d.range.start.offset, d.fix);
    // Same rule, same (shifted) place, same message: the same finding. The rule
    // may report another problem there (` #%%` is indented and lacks a space:
    // two findings, fixed in two passes), so the message is part of it.
    const back = again.find((x) => x.ruleId === d.ruleId && x.range.start.offset === at && x.message === d.message);
    expect(back, `fixed finding reported again: ${describeFix(d)} in ${show(text)}`).toBeUndefined();
  }
}

/** Checks lintAndFix on `text`. */
function checkFixAll(text: string): void {
  const fileName = fileNameFor(text);
  const fixed = lintAndFix(text, { fileName });
  expect(fixed.originalText).toBe(text);
  expectLossless(parse(fixed.text, { fileName }), fixed.text);
  expectSaneDiagnostics(fixed.text, fixed.diagnostics);
  expect(fixed.diagnostics, `diagnostics after fixing are stale for ${show(text)}`).toEqual(lint(fixed.text, { fileName }).diagnostics);
  const left = fixed.diagnostics.filter((d) => d.fix);
  expect(left.map(describeFix), `fixable findings left after --fix in ${show(text)}`).toEqual([]);
  const second = lintAndFix(fixed.text, { fileName });
  expect(second.text, `a second --fix changed ${show(fixed.text)}`).toBe(fixed.text);
}

describe('fixes', () => {
  it('of the corpus files: each removes its finding, all together leave nothing fixable, a second pass changes nothing', () => {
    for (const text of corpus) {
      checkEachFix(text);
      checkFixAll(text);
    }
  });

  it('each fix applied alone changes the text and removes its finding', () => {
    fc.assert(fc.property(fc.oneof(messageFile, mutatedFile), checkEachFix), { numRuns: runs(200) });
  });

  it('lintAndFix gives a text that parses, with nothing fixable left, and a second pass changes nothing', () => {
    fc.assert(fc.property(fc.oneof(messageFile, mutatedFile), checkFixAll), { numRuns: runs(300) });
  });

  it('with CRLF line breaks too, keeping them (no LF without its CR in the fixed text)', () => {
    fc.assert(
      fc.property(messageFile, (text) => {
        const crlf = text.replace(/\r?\n/g, '\r\n');
        checkEachFix(crlf);
        checkFixAll(crlf);
        const fixed = lintAndFix(crlf, { fileName: fileNameFor(crlf) }).text;
        expect(/(^|[^\r])\n/.test(fixed), `a fix brought an LF line break into ${show(crlf)}`).toBe(false);
      }),
      { numRuns: runs(100) },
    );
  });
});

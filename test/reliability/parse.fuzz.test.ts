// Property tests over arbitrary text and over message files (real ones and
// generated ones) with random mutations: parse never throws, the tree is
// lossless, every diagnostic's range lies in the document with its line and
// character matching its offset, lint never throws and no rule fails
// ("Internal error in rule …"). PROPERTY_RUNS raises the number of runs.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lint, lintDocument, parseForLint } from '../../server/linter.js';
import { parse } from '../../server/syntax/document.js';
import { anyUtf16, applyMutation, corpus, expectLossless, expectSaneDiagnostics, messageFile, mutatedFile, mutation, positionOf, runs, syntaxSoup } from './gen.js';

/** Parses and lints as a message file and under a name that needs detection; checks every invariant. */
function checkText(text: string): void {
  for (const fileName of ['fuzz.msg.md', 'fuzz.md']) {
    const doc = parse(text, { fileName });
    expectLossless(doc, text);
    const result = lint(text, { fileName, reportUnusedDisableDirectives: true });
    expect(result.isMessageFile).toBe(doc.isMessageFile);
    expectSaneDiagnostics(text, result.diagnostics);
  }
}

describe('the checks themselves', () => {
  it('count lines as the engine does (LF and CRLF end a line, a lone CR does not)', () => {
    expect(positionOf('a\nb\r\nc\rd', 7)).toEqual({ line: 2, character: 2 });
    expect(positionOf('', 0)).toEqual({ line: 0, character: 0 });
  });
  it('use a corpus of real message files', () => {
    expect(corpus.length).toBeGreaterThan(50);
  });
});

describe('parse and lint never fail', () => {
  it('on arbitrary UTF-16 text (lone surrogates, NUL, CR)', () => {
    fc.assert(fc.property(anyUtf16(300), checkText), { numRuns: runs(300) });
  });

  it('on text made of the format’s fragments', () => {
    fc.assert(fc.property(syntaxSoup(60), checkText), { numRuns: runs(300) });
  });

  it('on generated message files', () => {
    fc.assert(fc.property(messageFile, checkText), { numRuns: runs(300) });
  });

  it('on real and generated message files with random mutations', () => {
    fc.assert(fc.property(mutatedFile, checkText), { numRuns: runs(300) });
  });

  it('on every corpus file with CRLF line breaks, lone CRs and a BOM', () => {
    for (const text of corpus) {
      checkText('\ufeff' + text.replace(/\n/g, '\r\n'));
      checkText(text.replace(/\n/g, '\r'));
      checkText(text.replace(/\n/g, (_, i: number) => (i % 3 === 0 ? '\r\n' : '\n')));
    }
  });
});

describe('incremental parse and lint after random mutations', () => {
  it('equal a fresh parse and lint of the same text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...corpus), messageFile), fc.array(mutation, { minLength: 1, maxLength: 6 }), (base, edits) => {
        let text = base;
        let doc = parseForLint(text, { fileName: 'a.msg.md' });
        lintDocument(doc, { reportUnusedDisableDirectives: true });
        for (const e of edits) {
          text = applyMutation(text, e);
          doc = parseForLint(text, { fileName: 'a.msg.md', previous: doc });
          expectLossless(doc, text);
          const incremental = lintDocument(doc, { reportUnusedDisableDirectives: true });
          expect(incremental).toEqual(lint(text, { fileName: 'a.msg.md', reportUnusedDisableDirectives: true }).diagnostics);
        }
      }),
      { numRuns: runs(150) },
    );
  });
});

// A linter: the engine given a list of rules. The engine knows no rule of its
// own; its callers pass them (server/linter.ts passes the built-in ones).

import type { MessageDocument } from '../syntax/document.js';
import { lint, lintAndFix, lintDocument, lintDocumentOnce, lintDocumentSteps, lintSteps, unlinted } from './lint.js';
import { RuleSet } from './rule-set.js';
import type { Rule, LintOptions } from './types.js';

/** A linter of `rules` (ids must be unique). Findings and rule plans are cached per linter. */
export function createLinter(rules: readonly Rule[]) {
  const set = new RuleSet(rules);
  return {
    /** The rules it runs, in the order given. */
    rules: set.rules,
    getRule: (id: string) => set.getRule(id),
    lint: (text: string, options?: LintOptions) => lint(set, text, options),
    /** See lintAndFix in lint.ts: fixes applied until nothing changes. */
    lintAndFix: (text: string, options?: LintOptions & { maxPasses?: number }) => lintAndFix(set, text, options),
    /** Lints a document parsed with parseForLint; keeps findings so that the next version re-checks only what an edit touched. */
    lintDocument: (doc: MessageDocument, options?: LintOptions) => lintDocument(set, doc, options),
    /** Lints a parsed document that no edit follows (lintDocumentOnce in lint.ts): keeps nothing, memory bounded as `lint`'s. */
    lintDocumentOnce: (doc: MessageDocument, options?: LintOptions) => lintDocumentOnce(set, doc, options),
    /** `lint` in steps, for a caller that must stay responsive (see steps.ts: runSteps drives them, drain finishes them). */
    lintSteps: (text: string, options?: LintOptions) => lintSteps(set, text, options),
    /** `lintDocument` in steps; given up before its end, it keeps nothing (see lintDocumentSteps in lint.ts). */
    lintDocumentSteps: (doc: MessageDocument, options?: LintOptions) => lintDocumentSteps(set, doc, options),
    /** The one finding of a text that is not parsed (too large, binary), or undefined when it is linted (engine/limits.ts). */
    unlinted: (text: string, options?: LintOptions) => unlinted(set, text, options),
  };
}

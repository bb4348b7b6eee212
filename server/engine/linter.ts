// A linter: the engine given a list of rules. The engine knows no rule of its
// own; its callers pass them (server/linter.ts passes the built-in ones).

import type { MessageDocument } from '../syntax/document.js';
import { lint, lintAndFix, lintDocument, lintDocumentSteps, lintSteps } from './lint.js';
import { RuleSet } from './rule-set.js';
import type { Steps } from './steps.js';
import type { Diagnostic, LintOptions, LintResult, Rule } from './types.js';

export interface Linter {
  /** The rules it runs, in the order given. */
  readonly rules: readonly Rule[];
  getRule(id: string): Rule | undefined;
  lint(text: string, options?: LintOptions): LintResult;
  /** See lintAndFix in lint.ts: fixes applied until nothing changes. */
  lintAndFix(text: string, options?: LintOptions & { maxPasses?: number }): LintResult;
  /** Lints a document parsed with parseForLint; keeps findings so that the next version re-checks only what an edit touched. */
  lintDocument(doc: MessageDocument, options?: LintOptions): Diagnostic[];
  /** `lint` in steps, for a caller that must stay responsive (see steps.ts: runSteps drives them, drain finishes them). */
  lintSteps(text: string, options?: LintOptions): Steps<LintResult>;
  /** `lintDocument` in steps; given up before its end, it keeps nothing (see lintDocumentSteps in lint.ts). */
  lintDocumentSteps(doc: MessageDocument, options?: LintOptions): Steps<Diagnostic[]>;
}

/** A linter of `rules` (ids must be unique). Findings and rule plans are cached per linter. */
export function createLinter(rules: readonly Rule[]): Linter {
  const set = new RuleSet(rules);
  return {
    rules: set.rules,
    getRule: (id) => set.getRule(id),
    lint: (text, options) => lint(set, text, options),
    lintAndFix: (text, options) => lintAndFix(set, text, options),
    lintDocument: (doc, options) => lintDocument(set, doc, options),
    lintSteps: (text, options) => lintSteps(set, text, options),
    lintDocumentSteps: (doc, options) => lintDocumentSteps(set, doc, options),
  };
}

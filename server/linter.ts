// msglint's linter: the engine given the built-in rules. The CLI, the
// language server and the library entry lint through it; the engine and the
// config modules do not import rules/ (docs/architecture.md, "Layers").

import { rules } from '../rules/index.js';
import { createLinter } from './engine/linter.js';

export const linter = createLinter(rules);

/** Every built-in rule, in catalog order. */
export const allRules = linter.rules;
export const getRule = linter.getRule;
export const lint = linter.lint;
export const lintAndFix = linter.lintAndFix;
export const lintDocument = linter.lintDocument;
export const lintDocumentOnce = linter.lintDocumentOnce;
export const lintSteps = linter.lintSteps;
export const lintDocumentSteps = linter.lintDocumentSteps;
export const unlinted = linter.unlinted;
export { parseForLint } from './engine/lint.js';

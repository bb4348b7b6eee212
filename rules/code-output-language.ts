import { cellsOfKind } from '../server/syntax/document.js';
import { defineRule } from '../server/engine/rule-kit.js';
import { codeParent } from './code-output-parent.js';

/** Names of one language that are the same for this rule (lower case). */
const ALIASES: readonly (readonly string[])[] = [
  ['python', 'py', 'python3', 'ipython', 'ipython3'],
  ['javascript', 'js', 'node', 'nodejs'],
  ['typescript', 'ts'],
  ['bash', 'sh', 'shell'],
  ['powershell', 'pwsh', 'ps1'],
  ['ruby', 'rb'],
  ['csharp', 'cs', 'c#'],
  ['cpp', 'c++'],
  ['r', 'rscript'],
];

/** Characters a metadata `[TYPE]` may hold. */
const TYPE = /^[^\s[\]="'“”]+$/;

function canonical(language: string): string {
  const l = language.toLowerCase();
  return ALIASES.find((group) => group.includes(l))?.[0] ?? l;
}

export default defineRule(
  {
    id: 'code-output-language',
    group: 'code-execution',
    severity: 'warning',
    fixable: 'fix',
    description: "A code output type that differs from its code cell's code block language.",
  },
  ({ doc, report, doubtfulIdBetween }) => {
    for (const cell of cellsOfKind(doc, 'code-output')) {
      if (!doc.kindKnown(cell)) continue;
      const m = doc.metadataOf(cell);
      if (!m) continue;
      const found = codeParent({ doc, doubtfulIdBetween }, cell);
      if (!found || !('parent' in found)) continue;
      const language = found.parent.codeBlock?.language;
      // No code block, or one without a language: code-cell-block reports it.
      if (!language) continue;
      const type = doc.typeOf(cell)!;
      if (canonical(type) === canonical(language)) continue;
      const at = doc.abs(m.segment, m.node.typeSpan!);
      report({
        at,
        message: `The code cell \`${found.parent.id}\` runs \`${language}\`, so its output's type is \`[${language}]\`, not \`[${type}]\`.`,
        fix: TYPE.test(language) ? { range: at, text: language } : undefined,
        related: [{ at: doc.abs(found.parent, { start: found.parent.codeBlock!.fence.info.start, end: found.parent.codeBlock!.fence.info.start + language.length }), message: 'The code block language' }],
      });
    }
  },
);

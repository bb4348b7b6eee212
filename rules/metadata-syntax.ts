import type { MetadataProblem } from '../server/syntax/document.js';
import { defineSegmentRule } from '../server/engine/rule-kit.js';

function message(problem: MetadataProblem): string {
  const key = problem.key ?? '';
  switch (problem.kind) {
    case 'no-type':
      return 'A metadata line needs a type in brackets after the colon, as in `[markdown]`.';
    case 'no-space-after-type':
      return 'Attributes are separated from the type by a space.';
    case 'optional-brackets':
      return `Brackets around an attribute mean "optional" in the original document; write \`${problem.text}\` without them.`;
    case 'not-key-value':
      return `Expected \`key=value\`, found \`${problem.text}\`.`;
    case 'unclosed-quote':
      return `The value of \`${key}\` has no closing quote.`;
    case 'single-quotes':
      return `Single quotes around the value of \`${key}\`; use double quotes (").`;
    case 'curly-quotes':
      return `Curly quotes around the value of \`${key}\`; use straight quotes (").`;
    case 'bad-value':
      return `The value of \`${key}\` must be quoted ("...") or a bare word without quotes or brackets.`;
    case 'no-value':
      return `\`${key}=\` has no value.`;
    case 'no-space-between':
      return 'Attributes are separated by spaces.';
  }
}

/** The safe fix's text for `problem.span`: the attribute without its brackets, or the value in straight double quotes. */
function fixText(problem: MetadataProblem): string | undefined {
  if (!problem.fixable) return undefined;
  return problem.kind === 'optional-brackets' ? problem.text : `"${problem.text}"`;
}

export default defineSegmentRule(
  {
    id: 'metadata-syntax',
    group: 'structure',
    severity: 'error',
    fixable: 'fix',
    description: 'A metadata line that does not parse: no `[TYPE]`, an unterminated quote, text that is not `key=value`.',
  },
  (input, { report }) => {
    for (const m of input.segment.entries) {
      // An ordinary Markdown footnote (`[^n]: text`) is not metadata.
      if (!input.isMetadataLine(m)) continue;
      for (const problem of m.node.problems) {
        const text = fixText(problem);
        report({
          at: input.abs(problem.span),
          message: message(problem),
          fix: text !== undefined ? { range: input.abs(problem.span), text } : undefined,
        });
      }
    }
  },
);

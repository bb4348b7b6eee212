import { defineRule } from '../server/engine/rule-kit.js';
import { type MessageDocument, unclosedFrontmatter } from '../server/syntax/document.js';

const blank = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * A range that can be seen: trailing blanks and line breaks are dropped, and
 * an empty range (YAML reports "expected X here" at a point, often the end of
 * the text) grows to the character there, or else the last one before it.
 */
function visible(doc: MessageDocument, start: number, end: number, limit: number): [number, number] {
  const t = doc.text;
  start = Math.min(start, limit);
  let e = Math.min(end, limit);
  while (e > start && blank(t[e - 1])) e--;
  if (e > start) return [start, e];
  // Only blanks: a tab or space where YAML wants none is the place itself, as is any character but a line break.
  if (start < limit && t[start] !== '\n' && t[start] !== '\r') return [start, start + 1];
  let p = start;
  while (p > 0 && blank(t[p - 1])) p--;
  return p > 0 ? [p - 1, p] : [start, start];
}

export default defineRule(
  {
    id: 'frontmatter-yaml',
    group: 'agents',
    severity: 'error',
    fixable: null,
    description: 'Frontmatter that is not valid YAML, or not a mapping, or that is never closed.',
  },
  ({ doc, report }) => {
    const fm = doc.frontmatter;
    if (fm) {
      for (const p of fm.problems) report({ at: visible(doc, p.span.start, p.span.end, fm.contentEnd), message: p.message });
      // A tag the YAML 1.2 core schema does not know (`!!js/function`,
      // `!!python/object/apply:…`, `!custom`): msglint reads the plain value
      // and runs nothing, but other YAML readers may build an object from it,
      // run code, or refuse the file.
      for (const w of fm.document?.warnings ?? []) {
        if (w.code !== 'TAG_RESOLVE_FAILED') continue;
        const tag = /Unresolved tag: (\S+)/.exec(w.message)?.[1]?.replace(/^tag:yaml\.org,2002:/, '!!') ?? 'this tag';
        const [a, b] = w.pos;
        report({
          at: visible(doc, fm.contentStart + a, fm.contentStart + Math.max(a, b), fm.contentEnd),
          message: `The YAML tag \`${tag}\` is not one msglint knows: the value is read as plain text, while other YAML readers may build an object from it, run code or refuse the file. Remove the tag.`,
          severity: 1,
        });
      }
      return;
    }
    // `---` on the first line that no `---` or `...` line closes: the parser
    // reads it as Markdown (a thematic break), so every setting in it is lost.
    const start = unclosedFrontmatter(doc.text);
    if (start !== -1) {
      report({
        at: [start, start + 3],
        message: 'The frontmatter opened here is never closed by a `---` (or `...`) line, so it is read as Markdown and its settings are ignored.',
      });
    }
  },
);

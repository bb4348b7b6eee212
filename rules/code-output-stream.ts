import { defineCellRule } from '../server/engine/rule-kit.js';
import type { CellInput } from '../server/engine/cell-input.js';
import type { SegmentContext } from '../server/engine/types.js';
import type { Cell, Line } from '../server/syntax/document.js';
import { contentLines, isBinaryMimeType, mimeTypeOf, outputPrefix } from '../server/llm-view/view.js';

const BASE64_CHAR = /[A-Za-z0-9+/=]/;

function isBlank(text: string, line: Line): boolean {
  return text.slice(line.start, line.contentEnd).trim() === '';
}

/** `stdout>text` / `stderr>text`: the prefix without its space. */
function gluedPrefix(text: string, line: Line): number {
  for (const s of ['stdout>', 'stderr>']) if (text.startsWith(s, line.start) && line.start + 7 < line.contentEnd) return line.start + 7;
  return -1;
}

function checkText(input: CellInput, cell: Cell, lines: Line[], report: SegmentContext['report']): void {
  const text = cell.text;
  let run: Line[] = [];
  const flush = (): void => {
    const n = run.length;
    if (!n) return;
    report({
      at: input.abs({ start: run[0]!.start, end: run[n - 1]!.contentEnd }),
      message: n === 1 ? 'A line of code output starts with `stdout> ` or `stderr> `.' : `${n} lines of code output without the \`stdout> \` or \`stderr> \` prefix.`,
      suggestions: [
        {
          desc: n === 1 ? 'Mark the line as `stdout> `' : `Mark the ${n} lines as \`stdout> \``,
          fix: run.map((l) => ({ range: input.abs({ start: l.start, end: l.start }), text: 'stdout> ' })),
        },
      ],
    });
    run = [];
  };
  for (const line of lines) {
    if (isBlank(text, line) || outputPrefix(text, line)) {
      flush();
      continue;
    }
    const glued = gluedPrefix(text, line);
    if (glued !== -1) {
      flush();
      const stream = text.slice(line.start, line.start + 6);
      report({
        at: input.abs({ start: line.start, end: glued }),
        message: `The \`${stream}> \` prefix ends with a space before the output text.`,
        suggestions: [{ desc: 'Insert the space', fix: [{ range: input.abs({ start: glued, end: glued }), text: ' ' }] }],
      });
      continue;
    }
    run.push(line);
  }
  flush();
}

/**
 * The first place the base64 body of a binary output breaks, or null.
 * Lines may carry a `stdout> ` prefix; `stderr> ` lines are text beside the data.
 */
export function base64Problem(text: string, lines: Line[]): { start: number; end: number; message: string } | null {
  let length = 0;
  let padding = 0;
  let lastData: { start: number; end: number } | undefined;
  for (const line of lines) {
    const pre = outputPrefix(text, line);
    if (pre?.stream === 'stderr') continue;
    const from = pre ? pre.contentStart : line.start;
    for (let i = from; i < line.contentEnd; i++) {
      const ch = text[i]!;
      if (ch === ' ' || ch === '\t') continue;
      if (!BASE64_CHAR.test(ch)) {
        let j = i + 1;
        while (j < line.contentEnd && !BASE64_CHAR.test(text[j]!) && text[j] !== ' ') j++;
        return { start: i, end: j, message: `The body of a binary output is base64 (A-Z a-z 0-9 + / and = padding); \`${text.slice(i, j)}\` is not.` };
      }
      if (ch === '=') padding++;
      else if (padding > 0) return { start: i, end: i + 1, message: 'Base64 data continues after its `=` padding.' };
      length++;
    }
    if (line.contentEnd > from) lastData = { start: from, end: line.contentEnd };
  }
  if (lastData && (length % 4 !== 0 || padding > 2)) {
    return { start: lastData.start, end: lastData.end, message: `Base64 data comes in groups of 4 characters; this body has ${length} (missing or extra \`=\` padding, or cut short).` };
  }
  return null;
}

/**
 * The content lines of a code output, without a line that opens an HTML
 * comment that never closes: closed, it would be a comment line, which is
 * not output (unclosed-fence reports the comment).
 */
function streamLines(cell: Cell): Line[] {
  const lines = contentLines(cell);
  const comments = cell.parse.comments;
  if (!comments.some((c) => !c.closed)) return lines;
  const opensUnclosed = (l: Line): boolean => comments.some((c) => !c.closed && c.start >= l.start && c.start < l.contentEnd && cell.text.slice(l.start, c.start).trim() === '');
  return lines.filter((l) => !opensUnclosed(l));
}

export default defineCellRule(
  {
    id: 'code-output-stream',
    group: 'code-execution',
    severity: 'error',
    fixable: 'suggestion',
    description: 'A text output line without the `stdout> ` / `stderr> ` prefix, or a binary `mime_type` whose body is not valid base64.',
  },
  (cell, input, { report }) => {
    if (input.kind !== 'code-output' || !input.kindKnown || !input.metadata) return;
    // An invalid mime_type is attribute-value's; which form the body has is then unknown.
    const mimeType = mimeTypeOf(input.attr('mime_type'));
    if (mimeType === undefined) return;
    const lines = streamLines(cell);
    if (isBinaryMimeType(mimeType)) {
      const p = base64Problem(cell.text, lines);
      if (p) report({ at: input.abs(p), message: `${p.message} (mime_type \`${mimeType}\`)` });
      return;
    }
    checkText(input, cell, lines, report);
  },
);

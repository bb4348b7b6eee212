// Text made into a cell body that reads back as written (spec section 6),
// and what could not be: each such change is returned as words, so that the
// caller (the importer) reports it instead of changing text silently.
//
// What the LLM view does to a body, and what the writer does about it:
// - A line read as a cell marker or a metadata line, or a first paragraph
//   `[…]` of a reply: escaped with one backslash (escapeBody), which the view
//   drops again. Exact.
// - CRLF: the file's line breaks are LF, and the view joins lines with LF, so
//   a CR before a LF is lost; written as LF and reported. A lone CR is not a
//   line break in the format: kept.
// - Blank lines at the start or end of a body: the view drops them; left out
//   and reported.
// - A line that is only an HTML comment: the view drops it (msglint
//   directives and notes are comments); written, and reported. Every body
//   is read back as the view reads it (readBack), so that no other
//   difference goes unreported either.
// - A fence that never closes: a later fence anywhere in the file could
//   close it and hide the cells between (spec section 2), so it is closed at
//   the end of the body with a fence line of its own, which the view then
//   has too; reported. An HTML comment that never closes likewise gets a
//   `-->` line.

import { bodyText } from '../llm-view/view.js';
import { parse, unescapeReplyStart } from '../syntax/document.js';
import { scan } from '../syntax/format/scan.js';
import { toolCallsOf } from '../tool-calls/index.js';
import { escapeBody } from '../syntax/document.js';

export interface PreparedBody {
  text: string;
  changes: string[];
  /** What is written as given but worth a word (a `<tool>` mention lint reports). */
  kept: string[];
  /** The view finds no content in it (blank, or only comments). */
  empty: boolean;
}

/** The blank lines at both ends removed, as the view does (a blank line is empty or spaces and tabs). */
function trimBlankLines(lines: string[]): string[] {
  let s = 0;
  let e = lines.length;
  while (s < e && /^[ \t]*$/.test(lines[s]!)) s++;
  while (e > s && /^[ \t]*$/.test(lines[e - 1]!)) e--;
  return lines.slice(s, e);
}

/** Only an HTML comment (or the lines of one): what the view leaves out of a body. */
function commentOnlyLines(lines: readonly string[]): boolean {
  let open = false;
  for (const line of lines) {
    const t = line.trim();
    if (open) {
      if (t.includes('-->')) {
        open = false;
        if (t.endsWith('-->')) return true;
      }
      continue;
    }
    if (t.startsWith('<!--')) {
      const end = t.indexOf('-->', 4);
      if (end === -1) open = true;
      else if (end + 3 === t.length) return true;
    }
  }
  return false;
}

/**
 * A body as written into a cell: escaped, its ends trimmed of blank lines,
 * unclosed fences made explicit; `changes` says what the view will not give
 * back exactly.
 */
export function prepareBody(text: string, options: { replyStart?: boolean } = {}, checksTools = false): PreparedBody {
  const changes: string[] = [];
  let t = text;
  if (t.includes('\r\n')) {
    changes.push('CRLF line breaks written as LF');
    t = t.replace(/\r\n/g, '\n');
  }
  const all = t.split('\n');
  const lines = trimBlankLines(all);
  if (lines.length !== all.length && t !== '') changes.push('blank lines at the start or end left out');
  const closed = closeOpeners(lines.join('\n'), changes, options);
  const written = escapeBody(closed, options);
  const back = readBack(written, options);
  if (back !== closed) {
    changes.push(commentOnlyLines(lines) ? 'a line that is only an HTML comment is not in the LLM view' : 'the LLM view reads the text differently');
  }
  // In a reply, text that mentions `<tool>` is read as a tool element wherever
  // it stands outside code (spec sections 6, 8), and the format has no escape
  // for it: kept as written, said here, and reported by lint.
  const kept = checksTools && written.includes('<tool>') && hasBrokenToolElement(written) ? ['a `<tool>` in the text that is not a well-formed tool element, written as given (lint reports it: tool-xml)'] : [];
  return { text: written, changes, kept, empty: back.trim() === '' };
}

/** The one cell of a message file holding `body`, as the view and the rules read it, with its version. */
function cellHolding(body: string) {
  const doc = parse(`# %% [^1]\n\n[^1]: [markdown]\n\n${body}\n`, { fileName: 'body.msg.md' });
  return doc.cells.length === 1 ? { doc, cell: doc.cells[0]! } : undefined;
}

/** What the LLM view makes of a body: the text of a message cell holding it (a reply's, with replyStart). */
export function readBack(body: string, options: { replyStart?: boolean } = {}): string {
  const held = cellHolding(body);
  if (!held) return '\u0000';
  const text = bodyText(held.doc, held.cell);
  return options.replyStart ? unescapeReplyStart(text) : text;
}

function hasBrokenToolElement(body: string): boolean {
  const held = cellHolding(body);
  return held !== undefined && toolCallsOf(held.cell).some((call) => !call.ok);
}

/**
 * The text (not yet escaped) with a closing line for a fence or a comment
 * that never closes in the text as it will be written (see above), each
 * reported in `changes`.
 */
function closeOpeners(text: string, changes: string[], options: { replyStart?: boolean }): string {
  let out = text;
  // Each closer can only close regions: a few rounds reach the fixed point.
  for (let round = 0; round < 4; round++) {
    const written = escapeBody(out, options);
    const found = scan(written, 0, written.length, { markers: false, blocks: true, leadingLine: false, stopAtMarker: undefined });
    const fence = found.fences.find((f) => !f.close);
    const comment = found.comments.find((c) => !c.closed);
    if (fence && (!comment || fence.open.start < comment.start)) {
      out += `\n${fence.char.repeat(fence.length)}`;
      changes.push('a fence that never closes is closed at the end');
    } else if (comment) {
      out += '\n-->';
      changes.push('an HTML comment that never closes is closed at the end');
    } else break;
  }
  return out;
}

/**
 * A reply's thinking paragraph (`[…]`, spec section 6): one paragraph, so a
 * blank line inside is removed; its ends are trimmed by the view. When its
 * first line needs an escape, `[` stands on a line of its own, so that the
 * escaped line still starts a line.
 */
export function prepareThinking(thinking: string): PreparedBody {
  const changes: string[] = [];
  let t = thinking.replace(/\r\n/g, '\n');
  if (t !== thinking) changes.push('CRLF line breaks in thinking written as LF');
  const lines = t.split('\n');
  const kept = lines.filter((l) => l.trim() !== '');
  if (kept.length !== lines.length && t.trim().includes('\n')) {
    if (trimBlankLines(lines).length !== kept.length) changes.push('blank lines inside thinking removed (thinking is one paragraph)');
  }
  t = kept.join('\n');
  if (t !== t.trim()) changes.push('white space at the ends of thinking trimmed');
  t = t.trim();
  const escaped = escapeBody(closeOpeners(t, changes, {}));
  const own = escaped.split('\n')[0] !== t.split('\n')[0] || t.startsWith('^') || /^ {0,3}(`{3}|~{3})/m.test(escaped);
  const text = own ? `[\n${escaped}\n]` : `[${escaped}]`;
  const back = readBack(text);
  if (back.slice(1, -1).trim() !== t) changes.push(commentOnlyLines(kept) ? 'a line of thinking that is only an HTML comment is not in the LLM view' : 'the LLM view reads the thinking differently');
  return { text, changes, kept: [], empty: t === '' };
}

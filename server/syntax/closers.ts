// What an edit's re-scan (splice.ts) needs to know about the lines that
// could close an open region, without reading the file, and when a
// frontmatter left open makes any edit that could close it take the whole
// path (parse.ts). The spec: an
// opening fence, `<![CDATA[` or `<!--` never closed later in the file hides
// nothing. So a fence that a re-scanned cell leaves open changes no cell
// after it when no later cell holds a line that could close it, and an edit
// after something left open changes nothing before it when the lines it
// touches hold no closer of any kind. Without these answers the re-scan read
// on for a closer up to 512 cells and then took the whole path, for every
// keystroke of a code block typed in the middle of a long conversation.

import type { CellParse } from './cell.js';
import { Memo } from './memo.js';
import type { MessageDocument, TextEditHint } from './message-document.js';

/**
 * A line shaped like a closing fence, as the block scanner reads one
 * (scan-lookahead.ts): up to three spaces, a run of three or more backticks
 * or tildes, then only blanks. The regular expression's line ends are more
 * than the scanner's (a lone CR, U+2028), so it finds every closer the
 * scanner does and perhaps a few more: more means the slower path, not a
 * wrong tree.
 */
const CLOSER_LINES = /^ {0,3}(`{3,}|~{3,})[ \t]*$/gm;
const CLOSER_LINE = new RegExp(CLOSER_LINES.source, 'm');

/** The longest closer-shaped line of backticks and of tildes in a cell: [0, 0] for none. */
const longest = new Memo<CellParse, readonly [number, number]>();

function longestClosers(parse: CellParse): readonly [number, number] {
  let found = longest.get(parse);
  if (!found) {
    const text = parse.text;
    let backticks = 0;
    let tildes = 0;
    // Most cells hold no fence at all: two substring searches say so.
    if (text.includes('```') || text.includes('~~~')) {
      for (const m of text.matchAll(CLOSER_LINES)) {
        const run = m[1]!;
        if (run.charCodeAt(0) === 96) backticks = Math.max(backticks, run.length);
        else tildes = Math.max(tildes, run.length);
      }
    }
    found = [backticks, tildes];
    longest.set(parse, found);
  }
  return found;
}

/** Whether a cell of `doc` after the cell at `index` holds a line that could close a fence of `char` and `length`. */
function closerAfter(doc: MessageDocument, index: number, char: '`' | '~', length: number): boolean {
  const k = char === '`' ? 0 : 1;
  const cells = doc.cells;
  for (let i = index + 1; i < cells.length; i++) if (longestClosers(cells[i]!.parse!)[k] >= length) return true;
  return false;
}

/**
 * Whether what a cell's parse leaves open could be closed after the cell at
 * `index` of `doc`: for fences, by a later closer-shaped line; a comment or
 * CDATA section left open is taken as closable (the re-scan reads on).
 */
export function mayCloseAfter(parse: CellParse, doc: MessageDocument, index: number): boolean {
  for (const c of parse.comments) if (!c.closed) return true;
  for (const tool of parse.tools) for (const c of tool.cdata) if (!c.closed) return true;
  for (const f of parse.fences) if (!f.close && closerAfter(doc, index, f.char, f.length)) return true;
  return false;
}

/**
 * Whether the lines of `text` that hold [from, to) could close something
 * left open before them: a closer-shaped fence line, `-->` or `]]>`.
 */
export function mayCloseBefore(text: string, from: number, to: number): boolean {
  const start = from > 0 ? text.lastIndexOf('\n', from - 1) + 1 : 0;
  let end = text.indexOf('\n', to);
  if (end === -1) end = text.length;
  const lines = text.slice(start, end);
  if (lines.includes('-->') || lines.includes(']]>')) return true;
  return CLOSER_LINE.test(lines);
}

/**
 * Whether an edit could close a frontmatter left open: `prev` starts with a
 * `---` line that no later `---` or `...` line closes (so it has no
 * frontmatter), and a line the edit touches is one of those. The block from
 * the first line to it then becomes the frontmatter, and the cells in it
 * are gone. Read from `prev`'s text around the edit, not from the new text.
 */
export function mayCloseFrontmatter(prev: MessageDocument, e: TextEditHint): boolean {
  const old = prev.text;
  const bom = old.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (prev.frontmatter || !(old.startsWith('---\n', bom) || old.startsWith('---\r\n', bom))) return false;
  const start = e.start > 0 ? old.lastIndexOf('\n', e.start - 1) + 1 : 0;
  let end = old.indexOf('\n', e.oldEnd);
  if (end === -1) end = old.length;
  const lines = old.slice(start, e.start) + e.text + old.slice(e.oldEnd, end);
  return /^(?:---|\.\.\.)\r?$/m.test(lines);
}

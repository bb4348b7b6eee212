// What the incremental parse needs to know about the lines that could close
// an open region, without reading the file. The spec: an opening fence,
// `<![CDATA[` or `<!--` never closed later in the file hides nothing. So a
// fence that a re-scanned cell leaves open changes no cell after it when no
// later cell holds a line that could close it, and an edit after something
// left open changes nothing before it when the lines it touches hold no
// closer of any kind (splice.ts). Without these answers the re-scan read on
// for a closer up to 512 cells and then took the whole path, for every
// keystroke of a code block typed in the middle of a long conversation. A
// frontmatter left open is the one region whose closing turns the cells
// before it into YAML: an edit that could close it takes the whole path
// (parse.ts).

import type { CellParse } from '../format/cell.js';
import { Memo } from '../../base/memo.js';
import type { MessageDocument, TextEditHint } from '../tree/message-document.js';
import type { Cell } from '../tree/segment.js';

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
const longest = new Memo<CellParse, readonly [number, number]>('parse');

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
  const table = doc.table.cells;
  if (index + 1 >= table.length) return false;
  // The rest of the cell's chunk one by one, then a chunk at a time by its longest closers (kept with the chunk).
  const c0 = table.chunkOf(index + 1);
  const first = table.chunks[c0]!;
  for (let j = index + 1 - table.chunkStarts()[c0]!; j < first.length; j++) if (longestClosers(first[j]!.parse)[k] >= length) return true;
  for (let c = c0 + 1; c < table.chunks.length; c++) if (table.derived(c, chunkClosers)[k] >= length) return true;
  return false;
}

/** The longest closer-shaped lines of a chunk's cells (ChunkedList.derived). */
function chunkClosers(cells: readonly Cell[]): readonly [number, number] {
  let backticks = 0;
  let tildes = 0;
  for (const c of cells) {
    const [b, t] = longestClosers(c.parse);
    backticks = Math.max(backticks, b);
    tildes = Math.max(tildes, t);
  }
  return [backticks, tildes];
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

/** The lines an edit touches, as the new text has them: read from `prev`'s text around the edit. */
function editedLines(prev: MessageDocument, e: TextEditHint): string {
  const old = prev.text;
  const start = e.start > 0 ? old.lastIndexOf('\n', e.start - 1) + 1 : 0;
  let end = old.indexOf('\n', e.oldEnd);
  if (end === -1) end = old.length;
  return old.slice(start, e.start) + e.text + old.slice(e.oldEnd, end);
}

/** Whether the lines an edit touches could close something left open before them: a closer-shaped fence line, `-->` or `]]>`. */
export function mayCloseBefore(prev: MessageDocument, e: TextEditHint): boolean {
  const lines = editedLines(prev, e);
  return lines.includes('-->') || lines.includes(']]>') || CLOSER_LINE.test(lines);
}

/**
 * Whether an edit could close a frontmatter left open: `prev` starts with a
 * `---` line that no later `---` or `...` line closes (so it has no
 * frontmatter), and a line the edit touches is one of those. The block from
 * the first line to it then becomes the frontmatter, and the cells in it
 * are gone.
 */
export function mayCloseFrontmatter(prev: MessageDocument, e: TextEditHint): boolean {
  if (prev.frontmatter) return false;
  // The first segment after a BOM, not the text: the text may be a rope that reading its start would flatten.
  const first = prev.segment(0)?.kind === 'bom' ? prev.segment(1) : prev.segment(0);
  if (!first || !/^---\r?\n/.test(first.text)) return false;
  return /^(?:---|\.\.\.)\r?$/m.test(editedLines(prev, e));
}

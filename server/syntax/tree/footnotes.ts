// Which footnote-shaped lines are metadata, a question about the whole
// file: a line is metadata when a cell uses its id or it declares an agent,
// and an ordinary footnote when the text refers to it as one (spec section 3).

import type { CellParse } from '../format/cell.js';
import { lineAt, type Line } from '../format/lines.js';
import type { MetadataNode } from '../format/metadata.js';
import type { MessageDocument } from './message-document.js';
import { Cell, type MetadataEntry } from './segment.js';

/** Footnote-shaped lines that no cell uses but whose TYPE shows they are metadata. */
const METADATA_TYPES: ReadonlySet<string> = new Set(['markdown', 'code', 'raw', 'tool', 'agent']);
const NO_IDS: ReadonlySet<string> = new Set();

/** Ids used as footnote references (`text[^n]`) in the message section, outside markers and code. */
// No `[` inside the id, so a line full of `[^` is scanned in linear time.
const FOOTNOTE_REF = /\[\^([^\]\s[]+)\]/g;

/** Adds the ids of the footnote references in `content` to `ids`. */
function addReferences(content: string, definitionAtStart: boolean, ids: Set<string>): void {
  if (!content.includes('[^')) return;
  FOOTNOTE_REF.lastIndex = 0;
  for (let m = FOOTNOTE_REF.exec(content); m; m = FOOTNOTE_REF.exec(content)) {
    // `[^n]:` at the start of a line defines the footnote; it does not refer to it.
    if (definitionAtStart && m.index === 0 && content[m[0].length] === ':') continue;
    ids.add(m[1]!);
  }
}

/**
 * Whether the prologue or a cell refers to `id` as a footnote. The cells'
 * references are found per chunk of cells (ChunkedList.derived): versions
 * that share a chunk share them, and an edit reads again only the chunks it wrote.
 */
function isReferenced(doc: MessageDocument, id: string): boolean {
  for (const seg of doc.table.leading) if (seg.kind === 'prologue' && footnoteReferences(seg.parse!).has(id)) return true;
  const cells = doc.table.cells;
  for (let c = 0; c < cells.chunks.length; c++) if (cells.derived(c, chunkReferences).has(id)) return true;
  return false;
}

/** The footnote references of a chunk's cells. */
function chunkReferences(cells: readonly Cell[]): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const c of cells) addParseReferences(c.parse, ids);
  return ids.size ? ids : NO_IDS;
}

/** The footnote references of one cell's (or the prologue's) text. */
export function footnoteReferences(p: CellParse): Set<string> {
  const ids = new Set<string>();
  addParseReferences(p, ids);
  return ids;
}

function addParseReferences(p: CellParse, ids: Set<string>): void {
  // A marker's title may refer to a footnote too (its id reference is not one).
  const title = p.marker?.title;
  if (title) addReferences(p.text.slice(title.start, title.end), false, ids);
  // Only the lines that hold `[^` (found with indexOf) are cut out and read,
  // by offsets: every cell has a metadata line with `[^`, and splitting every
  // cell into lines (CellParse.lines) to find them was most of the cost.
  const { text, opaqueLines } = p;
  let line = 0; // the line number at `pos`, counted only when some lines are opaque
  let pos = 0;
  let k = 0;
  if (p.marker) {
    const nl = text.indexOf('\n');
    if (nl === -1) return;
    line = 1;
    pos = k = nl + 1;
  }
  let oi = 0;
  const scratch: Line = { start: 0, contentEnd: 0, end: 0 };
  for (k = text.indexOf('[^', k); k !== -1; ) {
    const { start, contentEnd, end } = lineAt(text, text.lastIndexOf('\n', k) + 1, scratch);
    if (opaqueLines.length) {
      for (let at = text.indexOf('\n', pos); at !== -1 && at < start; at = text.indexOf('\n', at + 1)) line++;
      pos = start;
      while (oi < opaqueLines.length && opaqueLines[oi]! < line) oi++;
    }
    if (opaqueLines[oi] !== line) addReferences(text.slice(start, contentEnd), true, ids);
    k = text.indexOf('[^', end);
  }
}

/**
 * Whether a footnote-shaped line `[^id]: …` is a metadata line. It is when a
 * cell uses its id, or when it declares a temporary agent (`[agent]`). A line
 * that no cell uses is an ordinary Markdown footnote when it has no `[TYPE]`,
 * when its TYPE is not one a cell or agent could have (`[^n]: [RFC 9110] says
 * so.`), or when the text refers to it as a footnote (`… as shown[^n].`).
 */
export function isMetadataLine(doc: MessageDocument, m: MetadataEntry): boolean {
  const id = m.node.idText;
  // Nearly every line is its own cell's, which uses the id: no look-up.
  if ((m.segment instanceof Cell && m.segment.id === id) || doc.cellsById.has(id)) return true;
  const type = m.node.type;
  if (type === undefined) return false;
  if (type === 'agent') return true;
  if (!METADATA_TYPES.has(type) && !doc.hasAgent(type) && !doc.isLanguage(type)) return false;
  return !isReferenced(doc, id);
}

// Parses one segment of a message section (a cell, or the text before the
// first cell) from its own text alone. All spans are relative to the start of
// that text, so a parse can be cached by content and reused wherever the same
// text appears after an edit elsewhere in the file.

import { lineAt, splitLines, type Line } from './lines.js';
import { kept, packed, unpacked, type OneOrMore } from '../../base/lists.js';
import { Memo, MEMO } from '../../base/memo.js';
import { parseMarker, type MarkerNode } from './marker.js';
import { isFootnoteDefinition, parseMetadata, type MetadataNode } from './metadata.js';
import type { Span } from '../../base/text.js';
import { scan, type FenceBlock, type RegionNode, type ToolElement } from './scan.js';
import { OpaqueCursor, opaqueSpans } from './escape.js';

export type DirectiveKind = 'disable' | 'enable' | 'disable-line' | 'disable-next-line' | 'disable-file';

export interface Directive {
  kind: DirectiveKind;
  /** The whole comment. */
  span: Span;
  /** Rule names with their spans; empty means every rule. */
  rules: { name: string; span: Span }[];
}

export type BlockKind = 'marker' | 'metadata' | 'blank' | 'fence' | 'text';

/** Whole lines; the blocks of a segment partition its text exactly. */
export interface Block {
  kind: BlockKind;
  start: number;
  end: number;
}

export interface CellParse {
  text: string;
  marker?: MarkerNode;
  /**
   * Every line of the text, the marker line included. Made on first use:
   * the rules of a whole-file lint need them for a few cells, and one
   * object per line kept for every cell would be a large share of a long
   * file's tree.
   */
  readonly lines: Line[];
  /** Footnote-shaped lines (`[^id]:`) outside opaque regions, parsed as metadata. A list of one (here, in `fences` and `tools`) is made on each read: read it once into a local in a loop. */
  readonly metadata: readonly MetadataNode[];
  /** Index in `lines` of the first line after the marker that is neither blank nor an HTML comment. */
  placementLine: number;
  /** Offset of that line's start, or -1 (what rules ask of it, without making the lines). */
  placementStart: number;
  readonly fences: readonly FenceBlock[];
  readonly comments: readonly RegionNode[];
  readonly tools: readonly ToolElement[];
  readonly directives: readonly Directive[];
  readonly blocks: readonly Block[];
  /** Lines that are content: not the marker, not blank, not metadata, not a whole-line comment. */
  contentLineCount: number;
  /** Indices (in `lines`) of lines inside a fence, comment or CDATA, or that are fence lines; ascending. */
  readonly opaqueLines: readonly number[];
  /**
   * An opening fence, comment or CDATA that never closes in this text. Text
   * added later in the file could close it, which re-splits the file from
   * here on, so incremental re-parsing looks for these.
   */
  hasUnclosed: boolean;
  /** @internal Values computed for this parse (server/base/memo.ts), kept as long as it is. */
  [MEMO]: unknown[] | undefined;
}

const DIRECTIVE = /^<!--\s*msglint-(disable-next-line|disable-line|disable-file|disable|enable)(?=\s|-->)([\s\S]*?)-->$/;

function parseDirective(text: string, node: RegionNode): Directive | null {
  if (!node.closed) return null;
  const raw = text.slice(node.start, node.end);
  const m = DIRECTIVE.exec(raw);
  if (!m) return null;
  const listStart = node.start + 4 + raw.slice(4).indexOf(m[1]!) + m[1]!.length;
  const rules: Directive['rules'] = [];
  const re = /[^\s,]+/g;
  const list = m[2]!;
  // Text after ` -- ` is a description, as in ESLint.
  const dd = list.search(/(^|\s)--(\s|$)/);
  const names = dd === -1 ? list : list.slice(0, dd);
  for (let r = re.exec(names); r; r = re.exec(names)) {
    rules.push({ name: r[0], span: { start: listStart + r.index, end: listStart + r.index + r[0].length } });
  }
  return { kind: m[1] as DirectiveKind, span: { start: node.start, end: node.end }, rules };
}

function isBlank(text: string, line: Line): boolean {
  for (let i = line.start; i < line.contentEnd; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/**
 * Whether a line, trimmed, lies inside closed comments only, `comments[k]`
 * the first one that ends after the line's start.
 */
function onlyComments(text: string, line: Line, comments: readonly RegionNode[], k: number): boolean {
  const first = k;
  let p = line.start;
  while (p < line.contentEnd && (text[p] === ' ' || text[p] === '\t')) p++;
  while (p < line.contentEnd && k < comments.length) {
    const c = comments[k]!;
    if (c.start > p || !c.closed) break;
    p = c.end;
    while (p < line.contentEnd && (text[p] === ' ' || text[p] === '\t')) p++;
    k++;
  }
  return p >= line.contentEnd && k > first;
}

/** How many times parseCell has run (tests count the cells an edit parses again). */
export let parseCellCalls = 0;

/**
 * Runs of lines of one kind (each marker and metadata line alone), told
 * apart again from what the parse kept: the fences' lines, the metadata
 * lines, blank lines.
 */
function blocksOf(p: Pick<CellParse, 'text' | 'lines' | 'marker' | 'fences' | 'metadata'>): Block[] {
  const blocks: Block[] = [];
  const { lines, fences, metadata } = p;
  let fi = 0;
  let mi = 0;
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li]!;
    let kind: BlockKind;
    while (fi < fences.length && (fences[fi]!.closeIndex ?? fences[fi]!.openIndex) < li) fi++;
    while (mi < metadata.length && metadata[mi]!.span.start < line.start) mi++;
    if (li === 0 && p.marker) kind = 'marker';
    else if (fi < fences.length && fences[fi]!.openIndex <= li) kind = 'fence';
    else if (isBlank(p.text, line)) kind = 'blank';
    else if (mi < metadata.length && metadata[mi]!.span.start === line.start) kind = 'metadata';
    else kind = 'text';
    const last = blocks[blocks.length - 1];
    if (last && last.kind === kind && kind !== 'metadata' && kind !== 'marker' && last.end === line.start) last.end = line.end;
    else blocks.push({ kind, start: line.start, end: line.end });
  }
  return blocks;
}

/** Parses a segment's text. `hasMarker`: the first line is the cell marker. */
export function parseCell(text: string, hasMarker: boolean): CellParse {
  parseCellCalls++;
  const markerLine = hasMarker && text.length ? lineAt(text, 0) : undefined;
  const bodyStart = markerLine ? markerLine.end : 0;
  // Line indices of the scan count the marker line.
  const s = scan(text, bodyStart, text.length, { markers: false, blocks: true, leadingLine: markerLine !== undefined, stopAtMarker: undefined });
  const opaqueLines = s.opaqueLines;

  const marker = markerLine ? parseMarker(text, markerLine.start, markerLine.contentEnd) : undefined;

  const metadata: MetadataNode[] = [];
  let placementLine = -1;
  let placementStart = -1;
  let contentLineCount = 0;
  // Fences in line order: [first line, last line] of each, walked with a cursor.
  let fi = 0;
  let oi = 0;
  let ci = 0;
  let regions: OpaqueCursor | undefined;

  // One object, moved from line to line.
  const line: Line = { start: 0, contentEnd: 0, end: 0 };
  for (let li = 0, start = 0; start < text.length; li++, start = line.end) {
    lineAt(text, start, line);
    if (li === 0 && markerLine) continue;
    while (fi < s.fences.length && (s.fences[fi]!.closeIndex ?? s.fences[fi]!.openIndex) < li) fi++;
    const f = s.fences[fi];
    while (oi < opaqueLines.length && opaqueLines[oi]! < li) oi++;
    const opaque = opaqueLines[oi] === li;
    if (f && f.openIndex <= li) {
      if (placementLine === -1) {
        placementLine = li;
        placementStart = line.start;
      }
      contentLineCount++;
      continue;
    }
    if (isBlank(text, line)) continue;
    // A line of HTML comments only is neither where the metadata line goes nor content.
    while (ci < s.comments.length && s.comments[ci]!.end <= line.start) ci++;
    const commentLine = ci < s.comments.length && onlyComments(text, line, s.comments, ci);
    if (placementLine === -1 && !commentLine) {
      placementLine = li;
      placementStart = line.start;
    }
    // The last line of a comment or CDATA section starts inside it: not a footnote definition either.
    if (!opaque && isFootnoteDefinition(text, line.start, line.contentEnd) && !(regions ??= openRegions(s)).inside(line.start)) {
      metadata.push(parseMetadata(text, line.start, line.contentEnd, marker?.id));
      continue;
    }
    if (!commentLine) contentLineCount++;
  }

  const directives: Directive[] = [];
  // The marker line is not scanned with the body; read its comments here so a
  // directive written after a marker applies (`# %% Q <!-- msglint-disable-line … -->`).
  if (markerLine && text.lastIndexOf('<!--', markerLine.contentEnd) !== -1) {
    const re = /<!--(?:(?!-->)[\s\S])*-->/g;
    const line = text.slice(0, markerLine.contentEnd);
    for (let m = re.exec(line); m; m = re.exec(line)) {
      const d = parseDirective(text, { start: m.index, end: m.index + m[0].length, closed: true });
      if (d) directives.push(d);
    }
  }
  for (const c of s.comments) {
    if (text.startsWith('<!--', c.start) && text.startsWith('msglint-', c.start + 4 + (/^\s*/.exec(text.slice(c.start + 4, c.start + 24))?.[0].length ?? 0))) {
      const d = parseDirective(text, c);
      if (d) directives.push(d);
    }
  }

  // Footnote definitions that are real metadata lines count; an ordinary
  // footnote (`[^n]: text`) is not content-free, so count it as content.
  for (let k = 0; k < metadata.length; k++) if (metadata[k]!.type === undefined) contentLineCount++;

  return new CellParseImpl({
    text,
    marker,
    metadata: kept(metadata),
    placementLine,
    placementStart,
    fences: kept(s.fences),
    comments: kept(s.comments),
    tools: kept(s.tools),
    directives: kept(directives),
    contentLineCount,
    opaqueLines: kept(opaqueLines),
    hasUnclosed: hasUnclosed(s),
  });
}

/** The closed comments and CDATA sections a line may start inside (read on the first footnote-shaped line only). */
function openRegions(s: { fences: FenceBlock[]; comments: RegionNode[]; tools: ToolElement[] }): OpaqueCursor {
  return new OpaqueCursor(opaqueSpans({ fences: [], comments: s.comments, tools: s.tools }));
}

function hasUnclosed(s: { fences: FenceBlock[]; comments: RegionNode[]; tools: ToolElement[] }): boolean {
  for (let i = 0; i < s.fences.length; i++) if (!s.fences[i]!.close) return true;
  for (let i = 0; i < s.comments.length; i++) if (!s.comments[i]!.closed) return true;
  for (let i = 0; i < s.tools.length; i++) {
    const cdata = s.tools[i]!.cdata;
    for (let k = 0; k < cdata.length; k++) if (!cdata[k]!.closed) return true;
  }
  return false;
}

/**
 * A class, not an object literal with a getter: every instance keeps one
 * shape. A literal whose getter later redefines itself as a value falls into
 * dictionary mode, and every rule's `parse.lines` or `parse.metadata` is
 * then a hash look-up (test/syntax/shapes.test.ts guards against it).
 */
// Made on first use and kept in memo slots (base/memo.ts), not fields: a parse is not written after it is made.
const LINES = new Memo<CellParseImpl, Line[]>('parse');
const BLOCKS = new Memo<CellParseImpl, readonly Block[]>('parse');

class CellParseImpl implements CellParse {
  [MEMO]: unknown[] | undefined = undefined;
  readonly text: string;
  readonly marker: MarkerNode | undefined;
  // The lists most cells have one item of, kept as that item (lists.ts packed): 56 bytes each.
  private readonly metadataList: OneOrMore<MetadataNode>;
  readonly placementLine: number;
  readonly placementStart: number;
  private readonly fenceList: OneOrMore<FenceBlock>;
  readonly comments: readonly RegionNode[];
  private readonly toolList: OneOrMore<ToolElement>;
  readonly directives: readonly Directive[];
  readonly contentLineCount: number;
  readonly opaqueLines: readonly number[];
  readonly hasUnclosed: boolean;

  // Every field assigned here, in one order: all parses share one hidden class.
  constructor(fields: Omit<CellParse, 'lines' | 'blocks' | typeof MEMO>) {
    this.text = fields.text;
    this.marker = fields.marker;
    this.metadataList = packed(fields.metadata);
    this.placementLine = fields.placementLine;
    this.placementStart = fields.placementStart;
    this.fenceList = packed(fields.fences);
    this.comments = fields.comments;
    this.toolList = packed(fields.tools);
    this.directives = fields.directives;
    this.contentLineCount = fields.contentLineCount;
    this.opaqueLines = fields.opaqueLines;
    this.hasUnclosed = fields.hasUnclosed;
  }

  get metadata(): readonly MetadataNode[] {
    return unpacked(this.metadataList);
  }

  get fences(): readonly FenceBlock[] {
    return unpacked(this.fenceList);
  }

  get tools(): readonly ToolElement[] {
    return unpacked(this.toolList);
  }

  get lines(): Line[] {
    let lines = LINES.get(this);
    if (lines === undefined) LINES.set(this, (lines = splitLines(this.text)));
    return lines;
  }

  /** Made on first use: few rules look at blocks, and a long file has tens of thousands. */
  get blocks(): readonly Block[] {
    let blocks = BLOCKS.get(this);
    if (blocks === undefined) BLOCKS.set(this, (blocks = blocksOf(this)));
    return blocks;
  }
}

// A parsed message file: the lossless list of segments (frontmatter, text
// outside the message section, the text before the first cell, the cells),
// plus the file-wide facts rules need (ids, agents, languages).

import type { Range, Span } from '../base/text.js';
import { parseCell, type CellParse } from './cell.js';
import { isMap, parseFrontmatter, messageSectionName, unclosedFrontmatter, type Frontmatter } from './frontmatter.js';
import { idFits, outputKindKnown } from './ids.js';
import { LineIndex } from './lines.js';
import { MEMO } from './memo.js';
import type { MarkerNode } from './marker.js';
import type { MetadataNode } from './metadata.js';
import { scan, type FenceBlock, type Heading } from './scan.js';

export type SegmentKind = 'bom' | 'frontmatter' | 'outside' | 'prologue' | 'cell';

export type CellType =
  | 'message'
  | 'agent-reply'
  | 'tool-call'
  | 'tool-result'
  | 'code-output'
  /** An output cell whose type names no agent, tool or language. */
  | 'unknown-output'
  /** An output cell without metadata (its type is unknown). */
  | 'untyped-output';

export class Segment {
  constructor(
    readonly kind: SegmentKind,
    /** Absolute offset of the segment's first character. */
    readonly offset: number,
    readonly text: string,
    /** Cells, the prologue and outside text are parsed; bom and frontmatter are not. */
    readonly parse: CellParse | undefined,
  ) {}

  get end(): number {
    return this.offset + this.text.length;
  }

  /** Absolute offsets of a span relative to this segment. */
  abs(span: Span): [number, number] {
    return [this.offset + span.start, this.offset + span.end];
  }
}

export class Cell extends Segment {
  /** Index among the cells. */
  index = 0;
  /** The metadata line for this cell's id (wherever it is), if any. */
  metadata?: { segment: Segment; node: MetadataNode };
  cellType: CellType = 'message';

  /** The marker line (rules ask for it and the id often: kept here, one load away). */
  readonly marker: MarkerNode;
  /**
   * The id and the kind are fields, not getters: rules read them for every
   * cell, mostly before the JIT has optimized them, where a getter is a call.
   */
  readonly id: string | undefined;
  readonly isOutput: boolean;
  /**
   * The id names this cell: it has one, well-formed (segments of A-Z a-z
   * 0-9 _ -, none empty) and of the shape its kind takes (spec section 4).
   * cell-id-missing and cell-id-syntax report the others; a link that names
   * no cell may be to one of them.
   */
  idFits = true;
  /**
   * The kind (`cellType`) is known, not guessed: false for an output cell
   * whose kind rests on what is missing or wrong, such as a missing metadata
   * line, a type that names nothing, a `[tool]` id that fits neither a call
   * nor a result (see ids.ts), or a metadata line that is another cell's with
   * the same id (borrowsMetadata). Rules about one kind of cell leave such a
   * cell alone: its cause is reported where it is.
   */
  kindKnown = true;

  constructor(offset: number, text: string, parse: CellParse) {
    super('cell', offset, text, parse);
    this.marker = parse.marker!;
    this.id = this.marker.idRef?.id;
    this.isOutput = this.marker.kind === 'output';
  }

  get p(): CellParse {
    return this.parse!;
  }

  /** The metadata TYPE (`[markdown]`, `[coder]`, ...). */
  get type(): string | undefined {
    return this.metadata?.node.type;
  }

  attr(key: string): string | undefined {
    return this.metadata?.node.attributes.find((a) => a.key === key)?.value;
  }

  /** The first fenced code block and its language (first word of the info string). */
  get codeBlock(): { fence: FenceBlock; language: string } | undefined {
    const fence = this.parse!.fences[0];
    if (!fence) return undefined;
    const info = this.text.slice(fence.info.start, fence.info.end);
    return { fence, language: /^[^\s{]*/.exec(info)![0] };
  }

  /** The line break the marker line ends with (used when inserting lines). */
  get eol(): string {
    const l = this.parse!.lines[0]!;
    return l.end - l.contentEnd === 2 ? '\r\n' : '\n';
  }
}

export interface AgentDefinition {
  name: string;
  source: 'frontmatter' | 'body' | 'config';
  /** Absolute offsets of the name. */
  at: [number, number];
  /** For body agents: the metadata line. */
  metadata?: { segment: Segment; node: MetadataNode };
  /** Absolute offset from which a body agent may be used. */
  from: number;
}

export interface ParseOptions {
  fileName?: string;
  /** Agent names defined elsewhere (configuration). */
  agents?: readonly string[];
  /** Extra code output languages (configuration). */
  languages?: readonly string[];
  /** A parse of an earlier version: its cell parses are reused. */
  previous?: MessageDocument;
  /**
   * The change from `previous`'s text to this one, when the caller knows it
   * (an editor's didChange): spares comparing the texts, and typing inside
   * one cell is parsed from that cell alone, without reading the whole text.
   */
  edit?: TextEditHint;
  /**
   * The tree is used once, while its text is alive anyway (a command-line
   * lint): cells parse slices of the text instead of copies of their own.
   */
  once?: boolean;
}

/** [start, oldEnd) of the previous text is replaced by `text`. */
export interface TextEditHint {
  start: number;
  oldEnd: number;
  text: string;
}

/** Common languages that name a code output without a code cell in sight. */
export const COMMON_LANGUAGES: ReadonlySet<string> = new Set([
  'python', 'py', 'python3', 'ipython', 'javascript', 'js', 'node', 'typescript', 'ts', 'bash', 'sh', 'shell', 'zsh',
  'fish', 'powershell', 'pwsh', 'r', 'sql', 'julia', 'ruby', 'rb', 'go', 'rust', 'java', 'kotlin', 'scala', 'c',
  'cpp', 'c++', 'csharp', 'cs', 'php', 'perl', 'lua', 'swift', 'haskell', 'elixir', 'erlang', 'ocaml', 'matlab',
  'octave', 'dart', 'deno', 'console', 'text', 'plaintext', 'html', 'json', 'yaml', 'markdown-output',
]);

export const MESSAGE_TYPES: ReadonlySet<string> = new Set(['markdown', 'code', 'raw']);
export const RESERVED_TYPES: ReadonlySet<string> = new Set(['tool', 'agent', 'markdown', 'code', 'raw']);

export class MessageDocument {
  private lineIndex: LineIndex | undefined;
  readonly segments: Segment[] = [];
  readonly cells: Cell[] = [];
  frontmatter?: Frontmatter;
  isMessageFile = true;
  /** For ordinary .md files: the declared section and where it is. */
  section?: { name: string; heading?: Heading; start: number; end: number; notLastHeading?: Heading };
  /** Marker lines outside the message section (absolute line spans). */
  outsideMarkers: { start: number; end: number; before: boolean }[] = [];
  /** Every metadata-shaped line of the message section, in file order. */
  readonly metadata: { segment: Segment; node: MetadataNode; /** isMetadataLine's answer, once asked. */ isMetadata?: boolean }[] = [];
  cellsById: ReadonlyMap<string, Cell[]> = new Map<string, Cell[]>();
  readonly agents: AgentDefinition[] = [];
  /** Languages of code blocks in the file (info string's first word, lower case). */
  codeLanguages: ReadonlySet<string> = new Set<string>();
  /**
   * How this version differs from the one it was parsed from, when it was
   * parsed with `previous` and the change is one edited range. Dropped from
   * a version once a later one is parsed from it, so versions do not chain.
   */
  edit?: DocumentEdit;
  /** @internal File-wide facts by index, shared with later versions of the same structure. */
  structure!: Structure;
  /** @internal Values computed for this version (server/syntax/memo.ts). */
  [MEMO]: unknown[] | undefined = undefined;
  /** The previous version, only while this document is being built. */
  private previous: MessageDocument | undefined;
  /** The previous version's parses by text, built only when a re-scanned cell is not where it was. */
  private previousByText: readonly [Map<string, CellParse>, Map<string, CellParse>] | undefined;

  readonly options: ParseOptions;

  constructor(
    readonly text: string,
    options: ParseOptions = {},
    lines?: LineIndex,
  ) {
    this.lineIndex = lines;
    this.previous = options.previous;
    this.options = { ...options, previous: undefined, edit: undefined };
  }

  /** @internal Called once the tree is built. */
  finish(): void {
    this.previous = undefined;
    this.previousByText = undefined;
  }

  /** Line starts, found on first use: a file that lints clean needs no positions. */
  get lines(): LineIndex {
    return (this.lineIndex ??= new LineIndex(this.text));
  }

  get fileName(): string | undefined {
    return this.options.fileName;
  }

  range(start: number, end: number): Range {
    return this.lines.range(start, end);
  }

  /**
   * A cell parse reused from the previous version when the text is the same:
   * first the segment at `oldOffset` (where an unmoved or shifted cell was),
   * then any segment of the previous version with that text.
   */
  cellParse(text: string, hasMarker: boolean, oldOffset = -1): CellParse {
    const prev = this.previous;
    if (prev) {
      const old = oldOffset >= 0 ? prev.segmentAt(oldOffset) : undefined;
      if (old?.parse && old.offset === oldOffset && old.text === text && (old.parse.marker !== undefined) === hasMarker) return old.parse;
      // The cell that was here was edited: typing, the common case, needs no look-up by text.
      if (old?.parse && old.offset === oldOffset && text.length - old.text.length === this.text.length - prev.text.length) {
        return parseCell((' ' + text).slice(1), hasMarker);
      }
      if (!this.previousByText) {
        const byText = [new Map<string, CellParse>(), new Map<string, CellParse>()] as const;
        for (const seg of prev.segments) if (seg.parse) byText[seg.parse.marker ? 0 : 1].set(seg.text, seg.parse);
        this.previousByText = byText;
      }
      const found = this.previousByText[hasMarker ? 0 : 1].get(text);
      if (found) return found;
    }
    // A slice keeps its whole source string alive, and a cell's parse
    // outlives the version it came from: parse a copy of the cell's own,
    // so earlier versions of a long file can be collected.
    return parseCell(this.options.once ? text : (' ' + text).slice(1), hasMarker);
  }

  /** Agent names usable at an offset (frontmatter, config, and body agents declared before it). */
  agentAt(name: string, offset: number): AgentDefinition | undefined {
    let found: AgentDefinition | undefined;
    for (let i = 0, list = this.agents; i < list.length; i++) {
      const a = list[i]!;
      if (a.name === name && a.from <= offset) found ??= a;
    }
    return found;
  }

  /**
   * False when the file declares agents that could not be read: a
   * frontmatter that is not valid YAML, not a mapping or never closed, or
   * whose `agents` is not a mapping (frontmatter-yaml or agent-config says
   * so). A type that names no known agent may then name one of those.
   */
  get agentsKnown(): boolean {
    const fm = this.frontmatter;
    if (!fm) return unclosedFrontmatter(this.text) === -1;
    const agents = fm.agentsEntry;
    return fm.problems.length === 0 && (!agents || agents.value === null || isMap(agents.node));
  }

  isLanguage(type: string): boolean {
    const t = type.toLowerCase();
    return COMMON_LANGUAGES.has(t) || this.codeLanguages.has(t) || (this.options.languages?.includes(type) ?? false);
  }

  /** The default agent in force at an offset: frontmatter default_agent, then `default=1` body agents. */
  defaultAgentAt(offset: number): string | undefined {
    let name: string | undefined;
    const v = this.frontmatter?.defaultAgent?.value;
    if (typeof v === 'string' || typeof v === 'number') name = String(v);
    for (let i = 0, list = this.agents; i < list.length; i++) {
      const a = list[i]!;
      if (a.source === 'body' && a.from <= offset && a.metadata) {
        const d = a.metadata.node.attributes.find((x) => x.key === 'default');
        if (d && (d.value === '1' || d.value === 'true')) name = a.name;
      }
    }
    return name;
  }

  segmentAt(offset: number): Segment | undefined {
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.segments[mid]!.offset <= offset) lo = mid;
      else hi = mid - 1;
    }
    return this.segments[lo];
  }

  cellAt(offset: number): Cell | undefined {
    const s = this.segmentAt(offset);
    return s instanceof Cell ? s : undefined;
  }
}

function isMdFile(fileName: string | undefined): boolean {
  if (!fileName) return false;
  const f = fileName.toLowerCase();
  return f.endsWith('.md') && !f.endsWith('.msg.md');
}

/** Parses a message file. Never throws: any text gives a tree. */
export function parse(text: string, options: ParseOptions = {}): MessageDocument {
  const prev = options.previous;
  const hint = prev && options.edit && validHint(prev, options.edit, text) ? options.edit : undefined;
  if (prev && hint) {
    const typed = parseTyping(text, options, prev, hint);
    if (typed) return typed;
  }
  // A later version is being made from `prev`: it no longer needs its own previous.
  if (prev) prev.edit = undefined;
  const range = prev ? (hint ? { start: hint.start, oldEnd: hint.oldEnd, newEnd: hint.start + hint.text.length } : editRange(prev.text, text)) : undefined;
  const doc = new MessageDocument(text, options, prev && range ? prev.lines.edited(text, range.start, range.oldEnd, range.newEnd) : undefined);
  // Where a segment starting at `at` was in the previous version (-1: in the edited range).
  const oldOffset = (at: number): number => (!range ? -1 : at <= range.start ? at : at >= range.newEnd ? at - (range.newEnd - range.oldEnd) : -1);
  let pos = 0;
  if (text.charCodeAt(0) === 0xfeff) {
    doc.segments.push(new Segment('bom', 0, '\ufeff', undefined));
    pos = 1;
  }
  const fm = reuseFrontmatter(options.previous, text, pos) ?? parseFrontmatter(text, pos);
  if (fm) {
    doc.frontmatter = fm;
    doc.segments.push(new Segment('frontmatter', fm.start, (' ' + text.slice(fm.start, fm.end)).slice(1), undefined));
    pos = fm.end;
  }

  let sectionStart = pos;
  let sectionEnd = text.length;
  const md = isMdFile(options.fileName);
  const sectionName = messageSectionName(fm, text);
  if (md && sectionName === null) doc.isMessageFile = false;

  let markers: number[] | null = null;
  let oldCells: (Cell | undefined)[] | undefined;
  if (!md && prev && range) {
    const found = markersFromPrevious(prev, text, pos, range);
    if (found) ({ markers, oldCells } = found);
  }
  if (markers === null) {
    const bodyScan = scan(text, pos, text.length, { markers: true, headings: md, keepLines: false, leading: undefined, stopAtMarker: undefined });
    markers = bodyScan.markers.map((m) => m.line.start);
    if (md) {
      const name = sectionName ?? 'Discussion';
      const heading = bodyScan.headings.find((h) => h.text === name);
      doc.section = { name, heading, start: text.length, end: text.length };
      if (heading) {
        sectionStart = heading.line.end;
        const after = bodyScan.headings.find((h) => h.index > heading.index && h.level <= heading.level);
        if (after) {
          sectionEnd = after.line.start;
          doc.section.notLastHeading = after;
        }
        doc.section.start = sectionStart;
        doc.section.end = sectionEnd;
      } else {
        sectionStart = text.length;
      }
      for (let i = 0, list = bodyScan.markers; i < list.length; i++) {
        const m = list[i]!;
        if (m.line.start < sectionStart || m.line.start >= sectionEnd) {
          doc.outsideMarkers.push({ start: m.line.start, end: m.line.contentEnd, before: m.line.start < sectionStart });
        }
      }
      markers = markers.filter((m) => m >= sectionStart && m < sectionEnd);
      if (sectionStart > pos) {
        const outside = doc.cellParse(text.slice(pos, sectionStart), false, oldOffset(pos));
      doc.segments.push(new Segment('outside', pos, outside.text, outside));
      }
      pos = sectionStart;
    }
  }

  const firstCell = markers.length ? markers[0]! : sectionEnd;
  if (firstCell > pos) {
    const prologue = doc.cellParse(text.slice(pos, firstCell), false, oldOffset(pos));
    doc.segments.push(new Segment('prologue', pos, prologue.text, prologue));
  }
  for (let i = 0; i < markers.length; i++) {
    const start = markers[i]!;
    const end = i + 1 < markers.length ? markers[i + 1]! : sectionEnd;
    // A cell the re-scan did not reach keeps its text object and parse
    // (no slicing or hashing of unchanged text).
    const old = oldCells ? reusableCell(prev!, oldCells[i], start, end, oldOffset(start)) : undefined;
    const cellParse = old ? old.parse! : doc.cellParse(text.slice(start, end), true, oldOffset(start));
    const cell = new Cell(start, cellParse.text, cellParse);
    cell.index = doc.cells.length;
    doc.cells.push(cell);
    doc.segments.push(cell);
  }
  if (sectionEnd < text.length) {
    const after = doc.cellParse(text.slice(sectionEnd), false, oldOffset(sectionEnd));
    doc.segments.push(new Segment('outside', sectionEnd, after.text, after));
  }

  const edit = prev && range ? describeEdit(doc, prev, range, md) : undefined;
  doc.edit = edit;
  if (edit?.sameStructure) resolveLike(doc, prev!.structure, edit.changed);
  else resolve(doc);
  doc.finish();
  return doc;
}

function validHint(prev: MessageDocument, e: TextEditHint, text: string): boolean {
  return (
    Number.isInteger(e.start) &&
    Number.isInteger(e.oldEnd) &&
    e.start >= 0 &&
    e.start <= e.oldEnd &&
    e.oldEnd <= prev.text.length &&
    text.length === prev.text.length - (e.oldEnd - e.start) + e.text.length
  );
}

/**
 * Typing within the body of one cell: that cell is parsed again from its
 * own new text, and when only its prose changed (its shape is the same, no
 * line break was added or removed) the new version is the previous one with
 * that cell replaced and the later segments moved. Nothing reads the whole
 * new text, which an editor may hold as a rope not yet flattened.
 * Undefined when the edit is anything else.
 */
function parseTyping(text: string, options: ParseOptions, prev: MessageDocument, e: TextEditHint): MessageDocument | undefined {
  if (isMdFile(options.fileName) || !prev.structure) return undefined;
  if (!sameList(options.agents, prev.options.agents) || !sameList(options.languages, prev.options.languages)) return undefined;
  const seg = prev.segmentAt(e.start);
  if (!(seg instanceof Cell) || !seg.parse) return undefined;
  const rel = e.start - seg.offset;
  const relEnd = e.oldEnd - seg.offset;
  if (rel < seg.parse.lines[0]!.end || relEnd >= seg.text.length) return undefined;
  const removed = seg.text.slice(rel, relEnd);
  // A line break added or removed (Enter, or Backspace at a line's start)
  // keeps the structure too when it only splits or joins prose lines.
  const breaks = /[\r\n]/.test(removed) || /[\r\n]/.test(e.text);
  const cellText = seg.text.slice(0, rel) + e.text + seg.text.slice(relEnd);
  const parse = parseCell((' ' + cellText).slice(1), true);
  if (!proseOnly(prev, seg)) return undefined;
  const shape = typingShape(parse);
  if (shape === undefined || shape !== typingShape(seg.parse)) return undefined;

  prev.edit = undefined;
  const delta = e.text.length - (e.oldEnd - e.start);
  const lines = breaks ? prev.lines.replaced(e.start, e.oldEnd, e.text, text) : prev.lines.moved(e.start, delta, text);
  const doc = new MessageDocument(text, options, lines);
  doc.frontmatter = prev.frontmatter;
  const at = seg.index;
  let changed = -1;
  for (let i = 0; i < prev.segments.length; i++) {
    const old = prev.segments[i]!;
    const offset = old.offset > e.start ? old.offset + delta : old.offset;
    if (old instanceof Cell) {
      const cell = old.index === at ? new Cell(offset, parse.text, parse) : new Cell(offset, old.text, old.parse!);
      if (old.index === at) changed = i;
      cell.index = doc.cells.length;
      doc.cells.push(cell);
      doc.segments.push(cell);
    } else {
      doc.segments.push(new Segment(old.kind, offset, old.text, old.parse));
    }
  }
  doc.edit = {
    previous: prev,
    start: e.start,
    oldEnd: e.oldEnd,
    newEnd: e.start + e.text.length,
    sameStructure: true,
    changed: [changed],
    linesAdded: lines.lineCount - prev.lines.lineCount,
  };
  resolveLike(doc, prev.structure, doc.edit.changed);
  doc.finish();
  return doc;
}

export interface DocumentEdit {
  /**
   * The version this one was parsed from. Linting this version lets go of
   * it (what the lint needed of it, its findings, has been used), and so
   * does parsing a later version from this one: an editor's versions do
   * not pile up.
   */
  previous?: MessageDocument;
  /** The edited range: [start, oldEnd) of the previous text is [start, newEnd) of this one. */
  start: number;
  oldEnd: number;
  newEnd: number;
  /**
   * True when the two versions have the same segments, ids, metadata,
   * fences and tool calls, and differ only inside plain prose lines of
   * message cells and agent replies (see `shapeOf`; typing with the editor's
   * edit may also split or join such lines, see `typingShape` and
   * `linesAdded`): file-wide facts are the same, and findings that do not
   * read prose stay the same, moved by the edit.
   */
  sameStructure: boolean;
  /** Indices of the segments whose parse is not the previous version's. */
  changed: number[];
  /**
   * Lines added (negative: removed) by the edit. Nonzero only when typing
   * split or joined prose lines: the line numbers of all that follows
   * change, and findings whose messages name line numbers are made again.
   */
  linesAdded?: number;
}

/** The smallest range where two texts differ. */
function editRange(old: string, text: string): { start: number; oldEnd: number; newEnd: number } {
  const prefix = commonPrefix(old, text);
  const suffix = commonSuffix(old, text, Math.min(old.length, text.length) - prefix);
  return { start: prefix, oldEnd: old.length - suffix, newEnd: text.length - suffix };
}

function describeEdit(doc: MessageDocument, prev: MessageDocument, range: { start: number; oldEnd: number; newEnd: number }, md: boolean): DocumentEdit {
  const edit: DocumentEdit = { previous: prev, ...range, sameStructure: false, changed: [] };
  const delta = range.newEnd - range.oldEnd;
  const segs = doc.segments;
  const olds = prev.segments;
  const aligned = segs.length === olds.length;
  // Segments wholly before or after the edit keep their parse (or the
  // lookup by text found the same one); only those touching it are compared.
  let lo = 0;
  while (lo < segs.length && segs[lo]!.end <= range.start && aligned && segs[lo]!.parse === olds[lo]!.parse) lo++;
  let hi = segs.length - 1;
  while (hi >= lo && aligned && segs[hi]!.offset >= range.newEnd && segs[hi]!.parse === olds[hi]!.parse) hi--;
  let same =
    aligned &&
    !md &&
    doc.frontmatter === prev.frontmatter &&
    doc.lines.lineCount === prev.lines.lineCount &&
    sameList(doc.options.agents, prev.options.agents) &&
    sameList(doc.options.languages, prev.options.languages);
  for (let i = lo; i <= hi; i++) {
    const seg = segs[i]!;
    const old = aligned ? olds[i] : undefined;
    if (old && seg.parse === old.parse) continue;
    edit.changed.push(i);
    if (!same || !old || old.kind !== seg.kind || !seg.parse || !old.parse) {
      same = false;
      continue;
    }
    const oldStart = old.offset <= range.start ? old.offset : old.offset + delta;
    if (oldStart !== seg.offset || !proseOnly(prev, old) || shapeOf(seg.parse) !== shapeOf(old.parse)) same = false;
  }
  if (!aligned) edit.changed = segs.map((_, i) => i);
  edit.sameStructure = same;
  return edit;
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, i) => x === b[i]);
}

/**
 * A line of prose no file-wide fact or cross-cell finding depends on:
 * letters, digits, blanks and sentence punctuation, starting with a letter,
 * digit, quote or parenthesis (no list, heading, table, link, footnote
 * reference, HTML, code or metadata syntax).
 */
const PLAIN_PROSE = /^[ \t]*[\p{L}\p{N}'"(][\p{L}\p{M}\p{N} \t.,;:'"?!()\-]*$/u;

/**
 * Whether the prose of a segment is only prose to the rules: a message cell
 * or an agent's reply. The text of tool calls, tool results and code
 * outputs is read by cross-cell rules (tool XML, output prefixes), so any
 * change there is a change of structure.
 */
function proseOnly(doc: MessageDocument, seg: Segment): boolean {
  if (!(seg instanceof Cell)) return false;
  const type = doc.structure.cellTypes[seg.index];
  return type === 'message' || type === 'agent-reply';
}

/**
 * The text of a cell's parse with the content of its plain prose lines
 * (outside fences, comments and tool elements) replaced by a placeholder.
 * Two parses of a message cell or an agent reply with the same shape differ
 * only in such prose.
 */
export function shapeOf(p: CellParse): string {
  // Not cached: it is asked for the one or two cells an edit touches, and a
  // copy kept per cell would outlive the edit for as long as the cell.
  return p.marker ? masked(p, false) : p.text;
}

/**
 * The shape typing may not change (see parseTyping): `shapeOf`, and besides
 * its plain prose lines, the blank lines after the cell's first content line
 * masked too, each run of masked lines then one placeholder. So typing may
 * split or join prose lines, and fill or empty a line below the first
 * content, and nothing a cross-cell rule reads changes: the marker, the
 * lines up to the first content (metadata placement, the line after the
 * marker), ids, metadata, fences, comments and tool elements. Undefined for
 * a text holding the placeholder character itself.
 */
function typingShape(p: CellParse): string | undefined {
  if (!p.marker || p.text.includes('\u0000')) return undefined;
  return masked(p, true);
}

/** The text of a cell with masked lines as placeholders; `typing`: as typingShape does. */
function masked(p: CellParse, typing: boolean): string {
  const parts: string[] = [];
  let last = 0;
  let previous = -2;
  let bi = 0;
  let oi = 0;
  let ti = 0;
  for (let li = 1; li < p.lines.length; li++) {
    const line = p.lines[li]!;
    while (bi < p.blocks.length && p.blocks[bi]!.end <= line.start) bi++;
    while (oi < p.opaqueLines.length && p.opaqueLines[oi]! < li) oi++;
    while (ti < p.tools.length && p.tools[ti]!.end <= line.start) ti++;
    if (p.opaqueLines[oi] === li) continue;
    if (ti < p.tools.length && p.tools[ti]!.start < line.end) continue;
    const kind = p.blocks[bi]?.kind;
    const mask =
      (kind === 'text' && PLAIN_PROSE.test(p.text.slice(line.start, line.contentEnd))) ||
      (typing && kind === 'blank' && p.placementLine >= 1 && li > p.placementLine);
    if (!mask) continue;
    // For typing, a run of masked lines is one placeholder: the line break between two is skipped.
    if (typing && previous === li - 1) last = line.contentEnd;
    else {
      parts.push(p.text.slice(last, line.start), '\u0000');
      last = line.contentEnd;
    }
    previous = li;
  }
  return parts.length ? parts.join('') + p.text.slice(last) : p.text;
}

/** The previous version's cell `c` when it is the cell now at [start, end) (moved to `start` from `oldStart`). */
function reusableCell(prev: MessageDocument, c: Cell | undefined, start: number, end: number, oldStart: number): Cell | undefined {
  if (!c) return undefined;
  // From the previous version's arrays of offsets, not its cells: reading
  // thousands of scattered objects per keystroke is what costs.
  const starts = prev.structure.cellStarts;
  const oldEnd = c.index + 1 < starts.length ? starts[c.index + 1]! : prev.structure.cellsEnd;
  return starts[c.index] === oldStart && oldEnd - oldStart === end - start ? c : undefined;
}

/** The previous version's frontmatter when the new text starts with the same block. */
function reuseFrontmatter(prev: MessageDocument | undefined, text: string, pos: number): Frontmatter | undefined {
  const fm = prev?.frontmatter;
  if (!fm || fm.start !== pos) return undefined;
  // The block ends at the first closing line, so the same text up to its end is the same block.
  return text.length >= fm.end && text.startsWith(prev.text.slice(0, fm.end)) ? fm : undefined;
}

/** Length of the common prefix of two strings, compared a block at a time. */
export function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  let block = 256;
  while (i < n) {
    const len = Math.min(block, n - i);
    if (a.slice(i, i + len) === b.slice(i, i + len)) {
      i += len;
      block = Math.min(block * 2, 1 << 20);
    } else if (len <= 32) {
      while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
      return i;
    } else {
      block = len >> 1;
    }
  }
  return i;
}

/** Length of the common suffix, at most `max`. */
export function commonSuffix(a: string, b: string, max: number): number {
  const n = Math.min(a.length, b.length, max);
  let i = 0;
  let block = 256;
  while (i < n) {
    const len = Math.min(block, n - i);
    if (a.slice(a.length - i - len, a.length - i) === b.slice(b.length - i - len, b.length - i)) {
      i += len;
      block = Math.min(block * 2, 1 << 20);
    } else if (len <= 32) {
      while (i < n && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
      return i;
    } else {
      block = len >> 1;
    }
  }
  return i;
}

/**
 * Cell boundaries of an edited text, found by re-scanning only from the cell
 * before the edit until the scan is back in step with the previous version's
 * boundaries. Returns null when a whole scan is needed (ordinary .md files,
 * an edit in the frontmatter, or an unclosed fence, comment or CDATA before
 * the edit, which the new text might close).
 */
function markersFromPrevious(
  prev: MessageDocument,
  text: string,
  pos: number,
  range: { start: number; oldEnd: number; newEnd: number },
): { markers: number[]; oldCells: (Cell | undefined)[] } | null {
  const old = prev.text;
  if (old === text) return { markers: prev.cells.map((c) => c.offset), oldCells: prev.cells.slice() };
  const prefix = range.start;
  const delta = text.length - old.length;
  const oldEditEnd = range.oldEnd;
  const newEditEnd = range.newEnd;
  const prevBody = prev.segments.find((s) => s.kind === 'prologue' || s.kind === 'cell');
  const prevPos = prevBody ? prevBody.offset : old.length;
  if (pos !== prevPos || prefix < pos) return null;
  // Re-scan from the segment holding the character before the edit: an edit
  // at the start of a marker line can join that cell to the one before.
  const startSeg = prev.segmentAt(Math.max(pos, prefix - 1));
  if (!startSeg || (startSeg.kind !== 'cell' && startSeg.kind !== 'prologue')) return null;
  for (let i = 0, list = prev.segments; i < list.length; i++) {
    const seg = list[i]!;
    if (seg.offset >= startSeg.offset) break;
    if (seg.parse?.hasUnclosed) return null;
  }
  const before: number[] = [];
  let k = 0;
  for (; k < prev.cells.length && prev.cells[k]!.offset < startSeg.offset; k++) before.push(prev.cells[k]!.offset);
  // Old markers after the edit, in new coordinates, for the stop test.
  let j = k;
  while (j < prev.cells.length && prev.cells[j]!.offset < oldEditEnd) j++;
  let resumeAt = -1;
  const result = scan(text, startSeg.offset, text.length, {
    markers: true,
    headings: false,
    keepLines: false,
    leading: undefined,
    stopAtMarker(lineStart) {
      if (lineStart < newEditEnd) return false;
      while (j < prev.cells.length && prev.cells[j]!.offset + delta < lineStart) j++;
      if (j < prev.cells.length && prev.cells[j]!.offset + delta === lineStart) {
        resumeAt = j;
        return true;
      }
      return false;
    },
  });
  // oldCells[i]: the previous version's cell that marker i starts, when it
  // was not re-scanned (undefined for a marker found by the re-scan).
  const out = before;
  const oldCells: (Cell | undefined)[] = prev.cells.slice(0, before.length);
  for (let i = 0, list = result.markers; i < list.length; i++) {
    const m = list[i]!;
    out.push(m.line.start);
    oldCells.push(undefined);
  }
  if (resumeAt !== -1) {
    for (let i = resumeAt; i < prev.cells.length; i++) {
      out.push(prev.cells[i]!.offset + delta);
      oldCells.push(prev.cells[i]);
    }
  }
  return { markers: out, oldCells };
}

/** @internal File-wide facts by index: the same for versions that differ only in prose. */
export interface Structure {
  /** Cells by id, in file order: for the version that built the structure. */
  byId?: Map<string, Cell[]>;
  /**
   * Cell indices by id, for later versions of the same structure (made from
   * `byId` by the first of them, so that they do not keep its cells alive).
   */
  indexById?: Map<string, number[]>;
  /** Per cell, the index in `metadata` of its metadata line, or -1. */
  cellMeta: Int32Array;
  cellTypes: CellType[];
  /** Per cell, Cell.idFits (bit 1) and Cell.kindKnown (bit 2). */
  cellFacts: Uint8Array;
  /** Indices in `metadata` of the body agents, in `agents` order. */
  bodyAgents: number[];
  codeLanguages: Set<string>;
  /** Per segment, the index in `metadata` of its first metadata line (one more entry: the total). */
  metaStart: Int32Array;
  /** Per metadata line, the index of its segment. */
  metaSegment: Int32Array;
  /** Not shared: this version's cell offsets, the end of its last cell, and its metadata nodes in order. */
  cellStarts: number[];
  cellsEnd: number;
  metaNodes: MetadataNode[];
  /** Values computed for the structure (server/syntax/memo.ts), shared by the versions that share it. */
  [MEMO]: unknown[];
}

/** `cellsById` as a view of cell indices: versions of the same structure share the index. */
class CellsById implements ReadonlyMap<string, Cell[]> {
  private readonly made = new Map<string, Cell[]>();
  constructor(
    private readonly ids: Map<string, number[]>,
    private readonly cells: Cell[],
  ) {}
  get size(): number {
    return this.ids.size;
  }
  get(id: string): Cell[] | undefined {
    let list = this.made.get(id);
    if (list) return list;
    const indices = this.ids.get(id);
    if (!indices) return undefined;
    list = indices.map((i) => this.cells[i]!);
    this.made.set(id, list);
    return list;
  }
  has(id: string): boolean {
    return this.ids.has(id);
  }
  keys(): MapIterator<string> {
    return this.ids.keys();
  }
  *values(): MapIterator<Cell[]> {
    for (const id of this.ids.keys()) yield this.get(id)!;
  }
  *entries(): MapIterator<[string, Cell[]]> {
    for (const id of this.ids.keys()) yield [id, this.get(id)!];
  }
  [Symbol.iterator](): MapIterator<[string, Cell[]]> {
    return this.entries();
  }
  forEach(fn: (value: Cell[], key: string, map: ReadonlyMap<string, Cell[]>) => void): void {
    for (const [id, cells] of this.entries()) fn(cells, id, this);
  }
}

/** File-wide facts: ids, metadata ownership, agents, languages, cell types. */
function resolve(doc: MessageDocument): void {
  const ids = new Map<string, Cell[]>();
  let withId = 0;
  for (let i = 0, items = doc.cells; i < items.length; i++) {
    const cell = items[i]!;
    const id = cell.id;
    if (id === undefined) continue;
    withId++;
    const list = ids.get(id);
    if (list) list.push(cell);
    else ids.set(id, [cell]);
  }
  const codeLanguages = new Set<string>();
  const metaStart = new Int32Array(doc.segments.length + 1);
  const metaSegment: number[] = [];
  const metaNodes: MetadataNode[] = [];
  for (let si = 0; si < doc.segments.length; si++) {
    const seg = doc.segments[si]!;
    metaStart[si] = doc.metadata.length;
    if (seg.kind !== 'cell' && seg.kind !== 'prologue') continue;
    const p = seg.parse!;
    for (let i = 0, list = p.metadata; i < list.length; i++) {
      const node = list[i]!;
      // With the slot isMetadataLine fills: added later, it would give every entry a new shape and a property store.
      doc.metadata.push({ segment: seg, node, isMetadata: undefined });
      metaSegment.push(si);
      metaNodes.push(node);
    }
    for (let i = 0, list = p.fences; i < list.length; i++) {
      const f = list[i]!;
      const info = p.text.slice(f.info.start, f.info.end).trim();
      const lang = /^[^\s{]+/.exec(info)?.[0];
      if (lang) codeLanguages.add(lang.toLowerCase());
    }
  }
  metaStart[doc.segments.length] = doc.metadata.length;
  const cellMeta = new Int32Array(doc.cells.length).fill(-1);
  const unique = withId === ids.size;
  for (let k = 0; k < doc.metadata.length; k++) {
    const m = doc.metadata[k]!;
    const id = m.node.id.id;
    // Usually a metadata line sits in the cell it describes, whose id no other cell has: no look-up.
    if (unique && m.segment instanceof Cell && m.segment.id === id) {
      const c = m.segment;
      if (cellMeta[c.index] === -1) {
        cellMeta[c.index] = k;
        c.metadata = m;
      }
      continue;
    }
    const cells = ids.get(id);
    if (!cells) continue;
    for (let i = 0, list = cells; i < list.length; i++) {
      const c = list[i]!;
      if (cellMeta[c.index] === -1) {
        cellMeta[c.index] = k;
        c.metadata = doc.metadata[k];
      }
    }
  }
  doc.cellsById = ids;
  doc.codeLanguages = codeLanguages;

  addConfiguredAgents(doc);
  const bodyAgents: number[] = [];
  for (let k = 0; k < doc.metadata.length; k++) {
    const m = doc.metadata[k]!;
    if (m.node.type !== 'agent' || ids.has(m.node.id.id)) continue;
    bodyAgents.push(k);
    addBodyAgent(doc, m);
  }

  const cellTypes: CellType[] = [];
  const cellFacts = new Uint8Array(doc.cells.length);
  for (let i = 0, list = doc.cells; i < list.length; i++) {
    const cell = list[i]!;
    cellTypes.push((cell.cellType = classify(doc, cell)));
    cellFacts[i] = setFacts(doc, cell);
  }
  doc.structure = {
    byId: ids,
    cellMeta,
    cellTypes,
    cellFacts,
    bodyAgents,
    codeLanguages,
    metaStart,
    metaSegment: Int32Array.from(metaSegment),
    // Made now, so that the versions that share this structure share it.
    [MEMO]: [],
    ...ownStructure(doc, metaNodes),
  };
}

/** Sets Cell.idFits and Cell.kindKnown from the cell's kind; returns them as Structure.cellFacts bits. */
function setFacts(doc: MessageDocument, cell: Cell): number {
  const fits = (cell.idFits = idFits(cell.cellType, cell.id));
  const known = (cell.kindKnown = !cell.isOutput || (!borrowsMetadata(cell) && outputKindKnown(cell.cellType, cell.type, fits, doc)));
  return (fits ? 1 : 0) | (known ? 2 : 0);
}

/**
 * Whether the metadata line that counts for a cell lies in another cell
 * with the same id: the id is used twice (duplicate-id), and the line is
 * that cell's. What it says (the type, the attributes) is then not known to
 * be about this cell.
 */
export function borrowsMetadata(cell: Cell): boolean {
  const m = cell.metadata;
  return m !== undefined && m.segment !== cell && m.segment instanceof Cell && m.segment.id === cell.id;
}

function ownStructure(doc: MessageDocument, metaNodes: MetadataNode[]): Pick<Structure, 'cellStarts' | 'cellsEnd' | 'metaNodes'> {
  const last = doc.cells[doc.cells.length - 1];
  return { cellStarts: doc.cells.map((c) => c.offset), cellsEnd: last ? last.end : 0, metaNodes };
}

function addConfiguredAgents(doc: MessageDocument): void {
  for (const name of doc.options.agents ?? []) doc.agents.push({ name, source: 'config', at: [0, 0], from: 0 });
  for (let i = 0, list = doc.frontmatter?.agents ?? []; i < list.length; i++) {
    const a = list[i]!;
    doc.agents.push({ name: a.name, source: 'frontmatter', at: [a.nameSpan.start, a.nameSpan.end], from: 0 });
  }
}

function addBodyAgent(doc: MessageDocument, m: { segment: Segment; node: MetadataNode }): void {
  const at = m.segment.abs(m.node.id.span);
  doc.agents.push({ name: m.node.id.id, source: 'body', at, metadata: m, from: m.segment.offset + m.node.span.start });
}

/**
 * The file-wide facts of a version with the same structure as the one
 * `structure` was built for (DocumentEdit.sameStructure): the same by index,
 * so only the metadata list is rebuilt (its segments moved).
 */
function resolveLike(doc: MessageDocument, shared: Structure, changed: number[]): void {
  // Metadata nodes by index: the previous version's, with those of the
  // edited segments replaced (the same number of lines, by sameStructure).
  const nodes = shared.metaNodes.slice();
  for (let i = 0, list = changed; i < list.length; i++) {
    const si = list[i]!;
    const p = doc.segments[si]!.parse;
    if (!p) continue;
    let k = shared.metaStart[si]!;
    for (const node of p.metadata) nodes[k++] = node;
  }
  const segments = doc.segments;
  const metaSegment = shared.metaSegment;
  const metadata = doc.metadata;
  for (let k = 0; k < nodes.length; k++) metadata.push({ segment: segments[metaSegment[k]!]!, node: nodes[k]!, isMetadata: undefined });
  const { cellMeta, cellTypes, cellFacts } = shared;
  const cells = doc.cells;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    const k = cellMeta[i]!;
    if (k !== -1) cell.metadata = metadata[k];
    cell.cellType = cellTypes[i]!;
    const facts = cellFacts[i]!;
    if (facts !== 3) {
      cell.idFits = (facts & 1) !== 0;
      cell.kindKnown = (facts & 2) !== 0;
    }
  }
  const indexById = shared.indexById ?? indicesById(shared.byId!);
  doc.cellsById = new CellsById(indexById, cells);
  doc.codeLanguages = shared.codeLanguages;
  addConfiguredAgents(doc);
  for (const k of shared.bodyAgents) addBodyAgent(doc, metadata[k]!);
  doc.structure = { ...shared, byId: undefined, indexById, ...ownStructure(doc, nodes) };
}

function indicesById(byId: Map<string, Cell[]>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [id, cells] of byId) out.set(id, cells.map((c) => c.index));
  return out;
}

function classify(doc: MessageDocument, cell: Cell): CellType {
  if (!cell.isOutput) return 'message';
  const type = cell.type;
  // The id's shape from its text (the segments are made only when asked for).
  const { count, second } = idShape(cell.id);
  if (type === undefined) {
    // Without metadata, the id's shape is all there is to go on.
    if (count === 2 && /^\d+$/.test(second)) return 'code-output';
    if (count === 2) return 'tool-call';
    if (count === 3) return 'tool-result';
    return 'untyped-output';
  }
  if (type === 'tool') {
    if (count === 3) return 'tool-result';
    return 'tool-call';
  }
  if (doc.agentAt(type, cell.offset)) return 'agent-reply';
  if ((count === 2 && /^\d+$/.test(second)) || doc.isLanguage(type)) return 'code-output';
  return 'unknown-output';
}

/** How many dot-separated segments an id has (0 without an id; 4 stands for four or more), and its second one. */
function idShape(id: string | undefined): { count: number; second: string } {
  if (id === undefined) return { count: 0, second: '' };
  const d1 = id.indexOf('.');
  if (d1 === -1) return { count: 1, second: '' };
  const d2 = id.indexOf('.', d1 + 1);
  const second = id.slice(d1 + 1, d2 === -1 ? id.length : d2);
  if (d2 === -1) return { count: 2, second };
  return { count: id.indexOf('.', d2 + 1) === -1 ? 3 : 4, second };
}

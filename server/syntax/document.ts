// A parsed message file: the lossless list of segments (frontmatter, text
// outside the message section, the text before the first cell, the cells),
// plus the file-wide facts rules need (ids, agents, languages).

import type { Range } from '../engine/types.js';
import { parseCell, type CellParse } from './cell.js';
import { parseFrontmatter, messageSectionName, type Frontmatter } from './frontmatter.js';
import { LineIndex } from './lines.js';
import type { MarkerNode } from './marker.js';
import type { MetadataNode } from './metadata.js';
import { scan, type FenceBlock, type Heading, type Span } from './scan.js';

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

  constructor(offset: number, text: string, parse: CellParse) {
    super('cell', offset, text, parse);
  }

  get p(): CellParse {
    return this.parse!;
  }

  get marker(): MarkerNode {
    return this.parse!.marker!;
  }

  get id(): string | undefined {
    return this.parse!.marker!.idRef?.id;
  }

  get isOutput(): boolean {
    return this.parse!.marker!.kind === 'output';
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
  readonly lines: LineIndex;
  readonly segments: Segment[] = [];
  readonly cells: Cell[] = [];
  frontmatter?: Frontmatter;
  isMessageFile = true;
  /** For ordinary .md files: the declared section and where it is. */
  section?: { name: string; heading?: Heading; start: number; end: number; notLastHeading?: Heading };
  /** Marker lines outside the message section (absolute line spans). */
  outsideMarkers: { start: number; end: number; before: boolean }[] = [];
  /** Every metadata-shaped line of the message section, in file order. */
  readonly metadata: { segment: Segment; node: MetadataNode }[] = [];
  readonly cellsById = new Map<string, Cell[]>();
  readonly agents: AgentDefinition[] = [];
  /** Languages of code blocks in the file (info string's first word, lower case). */
  readonly codeLanguages = new Set<string>();
  // Keyed by the segment text itself; cells (with a marker) and marker-less
  // segments are kept apart since the same text parses differently.
  private cache = [new Map<string, CellParse>(), new Map<string, CellParse>()] as const;
  /** The previous version's parses, only while this document is being built. */
  private reuse: readonly [Map<string, CellParse>, Map<string, CellParse>] | undefined;

  readonly options: ParseOptions;

  constructor(
    readonly text: string,
    options: ParseOptions = {},
  ) {
    this.lines = new LineIndex(text);
    // Keep the earlier version's cache only during the parse, so versions do
    // not chain in memory.
    this.reuse = options.previous?.cache;
    this.options = { ...options, previous: undefined };
  }

  /** @internal Called once the tree is built. */
  finish(): void {
    this.reuse = undefined;
  }

  get fileName(): string | undefined {
    return this.options.fileName;
  }

  range(start: number, end: number): Range {
    return this.lines.range(start, end);
  }

  /** A cell parse reused from the previous version when the text is the same. */
  cellParse(text: string, hasMarker: boolean): CellParse {
    const k = hasMarker ? 0 : 1;
    let parse = this.cache[k].get(text) ?? this.reuse?.[k].get(text);
    if (!parse) {
      // A slice keeps its whole source string alive, and a cell's parse
      // outlives the version it came from: parse a copy of the cell's own,
      // so earlier versions of a long file can be collected.
      const own = (' ' + text).slice(1);
      parse = parseCell(own, hasMarker);
    }
    this.cache[k].set(parse.text, parse);
    return parse;
  }

  /** Records a parse reused as is from the previous version. */
  keep(text: string, parse: CellParse): CellParse {
    this.cache[parse.marker ? 0 : 1].set(text, parse);
    return parse;
  }

  /** Agent names usable at an offset (frontmatter, config, and body agents declared before it). */
  agentAt(name: string, offset: number): AgentDefinition | undefined {
    let found: AgentDefinition | undefined;
    for (const a of this.agents) if (a.name === name && a.from <= offset) found ??= a;
    return found;
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
    for (const a of this.agents) {
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
  const doc = new MessageDocument(text, options);
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
  let shift: number[] | undefined;
  const prev = options.previous;
  if (!md && prev) {
    const found = markersFromPrevious(prev, text, pos);
    if (found) ({ markers, shift } = found);
  }
  if (markers === null) {
    const bodyScan = scan(text, pos, text.length, { markers: true, headings: md, keepLines: false });
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
      for (const m of bodyScan.markers) {
        if (m.line.start < sectionStart || m.line.start >= sectionEnd) {
          doc.outsideMarkers.push({ start: m.line.start, end: m.line.contentEnd, before: m.line.start < sectionStart });
        }
      }
      markers = markers.filter((m) => m >= sectionStart && m < sectionEnd);
      if (sectionStart > pos) {
        const outside = doc.cellParse(text.slice(pos, sectionStart), false);
      doc.segments.push(new Segment('outside', pos, outside.text, outside));
      }
      pos = sectionStart;
    }
  }

  const firstCell = markers.length ? markers[0]! : sectionEnd;
  if (firstCell > pos) {
    const prologue = doc.cellParse(text.slice(pos, firstCell), false);
    doc.segments.push(new Segment('prologue', pos, prologue.text, prologue));
  }
  for (let i = 0; i < markers.length; i++) {
    const start = markers[i]!;
    const end = i + 1 < markers.length ? markers[i + 1]! : sectionEnd;
    // A cell the re-scan did not reach keeps its text object and parse
    // (no slicing or hashing of unchanged text).
    const old = shift && prev ? reusableCell(prev, start, end, shift[i]!) : undefined;
    const cellParse = old ? doc.keep(old.text, old.parse!) : doc.cellParse(text.slice(start, end), true);
    const cell = new Cell(start, cellParse.text, cellParse);
    cell.index = doc.cells.length;
    doc.cells.push(cell);
    doc.segments.push(cell);
  }
  if (sectionEnd < text.length) {
    const after = doc.cellParse(text.slice(sectionEnd), false);
    doc.segments.push(new Segment('outside', sectionEnd, after.text, after));
  }

  resolve(doc);
  doc.finish();
  return doc;
}

/** The previous version's cell that moved by `shift` to [start, end), if it is the same text. */
function reusableCell(prev: MessageDocument, start: number, end: number, shift: number): Cell | undefined {
  if (Number.isNaN(shift)) return undefined;
  const c = prev.cellAt(start - shift);
  return c && c.offset === start - shift && c.end === end - shift ? c : undefined;
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
function markersFromPrevious(prev: MessageDocument, text: string, pos: number): { markers: number[]; shift: number[] } | null {
  const old = prev.text;
  if (old === text) return { markers: prev.cells.map((c) => c.offset), shift: prev.cells.map(() => 0) };
  const prefix = commonPrefix(old, text);
  const suffix = commonSuffix(old, text, Math.min(old.length, text.length) - prefix);
  const delta = text.length - old.length;
  const oldEditEnd = old.length - suffix;
  const newEditEnd = text.length - suffix;
  const prevBody = prev.segments.find((s) => s.kind === 'prologue' || s.kind === 'cell');
  const prevPos = prevBody ? prevBody.offset : old.length;
  if (pos !== prevPos || prefix < pos) return null;
  // Re-scan from the segment holding the character before the edit: an edit
  // at the start of a marker line can join that cell to the one before.
  const startSeg = prev.segmentAt(Math.max(pos, prefix - 1));
  if (!startSeg || (startSeg.kind !== 'cell' && startSeg.kind !== 'prologue')) return null;
  for (const seg of prev.segments) {
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
  // shift[i]: how far marker i moved from the same marker of the previous
  // version (NaN for a marker found by the re-scan).
  const out = before;
  const shift: number[] = before.map(() => 0);
  for (const m of result.markers) {
    out.push(m.line.start);
    shift.push(NaN);
  }
  if (resumeAt !== -1) {
    for (let i = resumeAt; i < prev.cells.length; i++) {
      out.push(prev.cells[i]!.offset + delta);
      shift.push(delta);
    }
  }
  return { markers: out, shift };
}

/** File-wide facts: ids, metadata ownership, agents, languages, cell types. */
function resolve(doc: MessageDocument): void {
  for (const cell of doc.cells) {
    const id = cell.id;
    if (id === undefined) continue;
    const list = doc.cellsById.get(id);
    if (list) list.push(cell);
    else doc.cellsById.set(id, [cell]);
  }
  for (const seg of doc.segments) {
    if (seg.kind !== 'cell' && seg.kind !== 'prologue') continue;
    const p = seg.parse!;
    for (const node of p.metadata) doc.metadata.push({ segment: seg, node });
    for (const f of p.fences) {
      const info = p.text.slice(f.info.start, f.info.end).trim();
      const lang = /^[^\s{]+/.exec(info)?.[0];
      if (lang) doc.codeLanguages.add(lang.toLowerCase());
    }
  }
  for (const m of doc.metadata) {
    const cells = doc.cellsById.get(m.node.id.id);
    if (cells) {
      for (const c of cells) c.metadata ??= m;
    }
  }

  const config = doc.options.agents ?? [];
  for (const name of config) doc.agents.push({ name, source: 'config', at: [0, 0], from: 0 });
  for (const a of doc.frontmatter?.agents ?? []) {
    doc.agents.push({ name: a.name, source: 'frontmatter', at: [a.nameSpan.start, a.nameSpan.end], from: 0 });
  }
  for (const m of doc.metadata) {
    if (m.node.type !== 'agent' || doc.cellsById.has(m.node.id.id)) continue;
    const at = m.segment.abs(m.node.id.span);
    doc.agents.push({ name: m.node.id.id, source: 'body', at, metadata: m, from: m.segment.offset + m.node.span.start });
  }

  for (const cell of doc.cells) cell.cellType = classify(doc, cell);
}

function classify(doc: MessageDocument, cell: Cell): CellType {
  if (!cell.isOutput) return 'message';
  const type = cell.type;
  const segs = cell.id?.split('.') ?? [];
  if (type === undefined) {
    // Without metadata, the id's shape is all there is to go on.
    if (segs.length === 2 && /^\d+$/.test(segs[1]!)) return 'code-output';
    if (segs.length === 2) return 'tool-call';
    if (segs.length === 3) return 'tool-result';
    return 'untyped-output';
  }
  if (type === 'tool') {
    if (segs.length === 3) return 'tool-result';
    return 'tool-call';
  }
  if (doc.agentAt(type, cell.offset)) return 'agent-reply';
  if ((segs.length === 2 && /^\d+$/.test(segs[1]!)) || doc.isLanguage(type)) return 'code-output';
  return 'unknown-output';
}

// The parsed message file as rules and the editor see it: its segments and
// cells, and the file-wide facts (ids, agents, languages) that
// server/syntax/tree/facts.ts fills in.

import { countAtMost } from '../../base/sorted.js';
import type { Range, Span } from '../../base/text.js';
import { isMap, unclosedFrontmatter, type Frontmatter } from '../format/frontmatter.js';
import { LineIndex } from '../format/lines.js';
import { Memo, MEMO } from '../../base/memo.js';
import { ListMap } from '../../base/list-map.js';
import type { Heading, HeadingReading } from '../format/headings.js';
import { SegmentTable } from './segment-table.js';
import { Cell, CELL_KINDS, type CellKind, type MetadataEntry, type Segment } from './segment.js';
import { COMMON_LANGUAGES, ID_FITS, indexAgents, KIND_BITS, KIND_KNOWN, type AgentDefinition, type AgentIndex, type FileFacts } from './file-facts.js';

const NO_AGENTS: readonly AgentDefinition[] = [];
let nextSerial = 0;

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
   * (an editor's didChange): spares comparing the texts, and lets an edit
   * after the first cell's marker line be parsed from the cells around it
   * (the editor's path, splice.ts). `previous` is left as it was.
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

// Made on first use and kept in memo slots (base/memo.ts), not fields: a version is not written after parse returns it.
const NO_IDS = new ListMap<string, Cell>(new Map());
const LINE_INDEX = new Memo<MessageDocument, LineIndex>('document');
const AGENT_INDEX = new Memo<MessageDocument, AgentIndex>('document');
const LANGUAGES = new Memo<MessageDocument, ReadonlySet<string>>('document');

export class MessageDocument {
  /** The line starts the parse was given (an edit's, from the previous version's); else counted on first use. */
  private readonly givenLines: LineIndex | undefined;
  /** @internal The segments and where they start (segment-table.ts). */
  table: SegmentTable;
  /** @internal A number no other version has (what a cache kept on a shared object says it is for). */
  readonly serial = nextSerial++;
  frontmatter?: Frontmatter;
  isMessageFile = true;
  /** For ordinary .md files: the declared section and where it is. */
  section?: {
    name: string;
    heading?: Heading;
    start: number;
    end: number;
    notLastHeading?: Heading;
    /** Every heading of the document (CommonMark's), in order: what a hint about a missing section can offer. */
    headings: readonly Heading[];
    /** @internal How they were read: the next version reads again only what its edit may change. */
    reading?: HeadingReading;
  };
  /** Marker lines outside the message section (absolute line spans). */
  outsideMarkers: { start: number; end: number; before: boolean }[] = [];
  /** The cells of each id, in file order; the ids in no particular order. */
  cellsById: ListMap<string, Cell> = NO_IDS;
  readonly agents: AgentDefinition[] = [];
  /** @internal How the editor's path made this version from the previous one: not part of the version's value (DocumentEdit). */
  edit?: DocumentEdit;
  /** @internal File-wide facts (facts.ts); a version made by the editor's path shares the previous one's by chunk and bucket. */
  facts!: FileFacts;
  /** @internal Values computed for this version (server/base/memo.ts). */
  [MEMO]: unknown[] | undefined = undefined;

  readonly options: ParseOptions;

  constructor(
    readonly text: string,
    options: ParseOptions = {},
    lines?: LineIndex,
  ) {
    this.givenLines = lines;
    this.options = { ...options, previous: undefined, edit: undefined };
    this.table = new SegmentTable(text.length);
  }

  /** The cells, in order. */
  get cells(): readonly Cell[] {
    return this.table.cells.toArray();
  }

  /** Every segment, in order. */
  get segments(): readonly Segment[] {
    return this.table.segments;
  }

  /** Every metadata-shaped line of the message section, in file order. */
  get metadata(): readonly MetadataEntry[] {
    return this.table.metadata;
  }

  get cellCount(): number {
    return this.table.cells.length;
  }

  get segmentCount(): number {
    return this.table.segmentCount;
  }

  /** The cell of index `i`. */
  cell(i: number): Cell | undefined {
    return this.table.cells.at(i);
  }

  /** The segment of index `i`. */
  segment(i: number): Segment | undefined {
    return this.table.segment(i);
  }

  /** Whether `cells` is this version's list of all its cells (a whole run's scope), without making that list when it is not. */
  isAllCells(cells: readonly Cell[]): boolean {
    return cells.length === this.table.cells.length && cells === this.cells;
  }

  /** The frontmatter's segment, if the file has one. */
  get frontmatterSegment(): Segment | undefined {
    return this.table.frontmatter;
  }

  /** Line starts, found on first use: a file that lints clean needs no positions. */
  get lines(): LineIndex {
    if (this.givenLines) return this.givenLines;
    let lines = LINE_INDEX.get(this);
    if (lines === undefined) LINE_INDEX.set(this, (lines = new LineIndex(this.text)));
    return lines;
  }

  get fileName(): string | undefined {
    return this.options.fileName;
  }

  range(start: number, end: number): Range {
    return this.lines.range(start, end);
  }

  /** Agent names usable at an offset (frontmatter, config, and body agents declared before it). */
  agentAt(name: string, offset: number): AgentDefinition | undefined {
    for (const a of this.agentsNamed(name)) if (a.from <= offset) return a;
    return undefined;
  }

  /** Whether any agent (config, frontmatter or body, wherever it is declared) has this name. */
  hasAgent(name: string): boolean {
    return this.agentIndex().byName.has(name);
  }

  /** The definitions of an agent name, in `agents` order. */
  agentsNamed(name: string): readonly AgentDefinition[] {
    return this.agentIndex().byName.get(name) ?? NO_AGENTS;
  }

  /**
   * The agents by name, and where a body agent with `default=1` changes the
   * default: made on first use, so that a file with many temporary agents
   * costs a look-up per question, not a walk over every agent.
   */
  private agentIndex(): AgentIndex {
    // Indexed again while parse adds agents (facts.ts); once parse returns, the agents stay.
    const known = AGENT_INDEX.get(this);
    if (known && known.count === this.agents.length) return known;
    const index = indexAgents(this.agents);
    AGENT_INDEX.set(this, index);
    return index;
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

  /** Languages of code blocks in the file (info string's first word, lower case). */
  get codeLanguages(): ReadonlySet<string> {
    let set = LANGUAGES.get(this);
    if (set === undefined) LANGUAGES.set(this, (set = new Set(this.facts.languageCounts.keys())));
    return set;
  }

  /**
   * The code languages that some metadata line names as its type (lower
   * case, sorted, one per line): the only code languages the lint reads
   * (isLanguage is asked about metadata types), so two versions that differ
   * in other languages lint the same.
   */
  get languagesRead(): string {
    const named = new Set([...this.facts.typeCounts.keys()].map((t) => t.toLowerCase()));
    const out: string[] = [];
    for (const l of this.facts.languageCounts.keys()) if (!COMMON_LANGUAGES.has(l) && named.has(l)) out.push(l);
    return out.sort().join('\n');
  }

  isLanguage(type: string): boolean {
    const t = type.toLowerCase();
    return COMMON_LANGUAGES.has(t) || this.facts.languageCounts.has(t) || (this.options.languages?.includes(type) ?? false);
  }

  /** The default agent in force at an offset: frontmatter default_agent, then `default=1` body agents. */
  defaultAgentAt(offset: number): string | undefined {
    // The last `default=1` body agent declared at or before the offset, by binary search.
    const { defaults } = this.agentIndex();
    const before = countAtMost(defaults.length, (k) => defaults[k]!.from, offset);
    if (before > 0) return defaults[before - 1]!.name;
    const v = this.frontmatter?.defaultAgent?.value;
    return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
  }

  segmentAt(offset: number): Segment | undefined {
    return this.table.segmentAt(offset);
  }

  cellAt(offset: number): Cell | undefined {
    const s = this.table.segmentAt(offset);
    return s instanceof Cell ? s : undefined;
  }

  // What a segment is in this version: where it is, and what the file-wide
  // facts make a cell. Read here, not on the segment, which versions are
  // to share (issue 31): a segment's own parse is the same in each.

  /** Where a segment starts in this version's text. */
  offsetOf(seg: Segment): number {
    return this.table.offsetOf(seg);
  }

  /** Where a segment ends in this version's text. */
  endOf(seg: Segment): number {
    return this.table.offsetOf(seg) + seg.text.length;
  }

  /** Offsets in this version's text of a span relative to a segment. */
  abs(seg: Segment, span: Span): [number, number] {
    const at = this.table.offsetOf(seg);
    return [at + span.start, at + span.end];
  }

  /**
   * A cell's index among this version's cells (-1 when the version does
   * not have it): its key, in a version made whole; else found by its key,
   * which orders the cells of every version (Cell.key).
   */
  indexOf(cell: Cell): number {
    return this.table.indexOf(cell);
  }

  /** A segment's index in `segments` (-1 when the version does not have it). */
  segmentIndexOf(seg: Segment): number {
    return this.table.segmentIndexOf(seg);
  }

  /**
   * What a cell is in this version: a message, an agent's reply, a tool
   * call, ... This is the cell's kind as `kindKnown` and the rules say it;
   * not the metadata TYPE (`typeOf`), which is one of the things it is told
   * from, with the agents and the other cells' metadata lines.
   */
  kindOf(cell: Cell): CellKind {
    return CELL_KINDS[this.facts.cellFacts.at(this.indexOf(cell))! & KIND_BITS]!;
  }

  /**
   * kindOf, idFits and kindKnown of the cell at an index, packed
   * (FileFacts.cellFacts: decode with cellFactsKind and the ID_FITS and
   * KIND_KNOWN bits), and metadataOf it: for a walk over the cells in order,
   * which knows each index without looking it up.
   */
  factsAt(index: number): number {
    return this.facts.cellFacts.at(index)!;
  }

  metadataAt(index: number): MetadataEntry | undefined {
    return this.facts.cellMeta.at(index);
  }

  /** The metadata line for a cell's id (wherever it is), if any. */
  metadataOf(cell: Cell): MetadataEntry | undefined {
    return this.facts.cellMeta.at(this.indexOf(cell));
  }

  /** The TYPE a cell's metadata line says (`[markdown]`, `[coder]`, ...): not its kind. */
  typeOf(cell: Cell): string | undefined {
    return this.metadataOf(cell)?.node.type;
  }

  /** An attribute of a cell's metadata line. */
  attrOf(cell: Cell, key: string): string | undefined {
    return this.metadataOf(cell)?.node.attributes.find((a) => a.key === key)?.value;
  }

  /**
   * Whether a cell's id names it: it has one, well-formed (segments of A-Z
   * a-z 0-9 _ -, none empty) and of the shape its kind takes (spec section
   * 4). cell-id-missing and cell-id-syntax report the others; a link that
   * names no cell may be to one of them.
   */
  idFits(cell: Cell): boolean {
    return (this.facts.cellFacts.at(this.indexOf(cell))! & ID_FITS) !== 0;
  }

  /**
   * Whether a cell's kind is known, not guessed: false for an output cell
   * whose kind rests on what is missing or wrong, such as a missing metadata
   * line, a type that names nothing, a `[tool]` id that fits neither a call
   * nor a result (see ids.ts), or a metadata line that is another cell's
   * with the same id (borrowsMetadata). Rules about one kind of cell leave
   * such a cell alone: its cause is reported where it is.
   */
  kindKnown(cell: Cell): boolean {
    return (this.facts.cellFacts.at(this.indexOf(cell))! & KIND_KNOWN) !== 0;
  }
}

/** How a version made by the editor's path (splice.ts) differs from the one it was made from. */
export interface DocumentEdit {
  /**
   * What the previous version's values give this one's (versionValue):
   * per value, what its maker carries (never a version, so versions do not
   * chain and the previous one goes when nothing else holds it).
   */
  readonly carried: ReadonlyMap<unknown, unknown>;
  /** The edited range: [start, oldEnd) of the previous text is [start, newEnd) of this one. */
  start: number;
  oldEnd: number;
  newEnd: number;
  /**
   * This version's segments are the previous version's objects but for the
   * cells the edit replaced, and its lists share the previous version's
   * chunks. What is kept per cell may be carried over.
   */
  replaced: ReplacedCells;
}

/** What the editor's path replaced (DocumentEdit.replaced). */
export interface ReplacedCells {
  /**
   * The previous version's segments [at, at + removed) are this version's
   * [at, at + added); the others are the previous version's objects, those
   * after starting later by the edit's length change. The replaced
   * segments are cells, the first of index `cell` in both; `gone` are the
   * cells replaced (`removed` of them).
   */
  at: number;
  removed: number;
  added: number;
  cell: number;
  gone: Cell[];
  /**
   * Segments kept from the previous version whose facts
   * the edit made again: the cells of the ids the replaced cells and their
   * metadata lines name (their kind, metadata line, idFits and kindKnown
   * may differ), and the segments holding metadata lines of those ids
   * (whether a line is metadata, and whether a cell uses it, may differ).
   */
  refreshed: Segment[];
}

/** Whether a file is an ordinary Markdown file (its cells are in a message section), not a `.msg.md` file. */
export function isMdFile(fileName: string | undefined): boolean {
  if (!fileName) return false;
  const f = fileName.toLowerCase();
  return f.endsWith('.md') && !f.endsWith('.msg.md');
}

/**
 * After the editor's path (DocumentEdit.replaced): the previous version's
 * cells it replaced, and this version's that replace them.
 */
export function replacedSegments(doc: MessageDocument): { gone: Cell[]; come: Cell[] } {
  const { cell, added, gone } = doc.edit!.replaced;
  return { gone, come: doc.table.cells.slice(cell, cell + added) };
}

/** How a value of each version is made (versionValue). */
export interface VersionMaker<V, C> {
  /** What the next version's value is made from: kept by that version, so it must not hold this one. */
  carry(value: V): C;
  /** From what the previous version's value carried, for a version the editor's path made (DocumentEdit.replaced). */
  updated(doc: MessageDocument, before: C): V;
  whole(doc: MessageDocument): V;
}

/** The memos of values made by versionValue, with what each carries to the next version. */
const CARRIERS = new Map<Memo<MessageDocument, unknown>, (value: unknown) => unknown>();

/**
 * A version's value kept in `memo`: made from what the previous version's
 * carried (DocumentEdit.carried) when that one had it, else whole.
 */
export function versionValue<V, C>(memo: Memo<MessageDocument, V>, doc: MessageDocument, maker: VersionMaker<V, C>): V {
  let value = memo.get(doc);
  if (value !== undefined) return value;
  if (!CARRIERS.has(memo)) CARRIERS.set(memo, maker.carry as (value: unknown) => unknown);
  const before = doc.edit?.carried.get(memo) as C | undefined;
  value = before !== undefined ? maker.updated(doc, before) : maker.whole(doc);
  memo.set(doc, value);
  return value;
}

/** What a version's values made so far carry to a version made from it by an edit (DocumentEdit.carried). */
export function carriedFrom(prev: MessageDocument): ReadonlyMap<unknown, unknown> {
  const out = new Map<unknown, unknown>();
  for (const [memo, carry] of CARRIERS) {
    const value = memo.get(prev);
    if (value !== undefined) out.set(memo, carry(value));
  }
  return out;
}

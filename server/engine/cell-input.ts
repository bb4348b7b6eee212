// What a segment check may read, and nothing else (as a Biome rule's Query):
// its segment's text and parse, and the few facts of the file that a cell
// takes from the others. The engine makes one per segment on every lint and
// reuses a check's findings while the input is the same (sameInput): the
// contract of a segment check and the key of its cache are this one type,
// so they cannot drift apart.

import { Cell, CELL_KINDS, COMMON_LANGUAGES, isMetadataLine, KIND_BITS, type CellKind, type MessageDocument, type MetadataEntry, type Segment } from '../syntax/document.js';
import { ID_FITS as FACT_ID_FITS, KIND_KNOWN as FACT_KIND_KNOWN } from '../syntax/document.js';
import type { Span } from '../base/text.js';

/**
 * What the whole file offers every segment: the agents' names (and which
 * are declared in the body, usable only after their line), the code
 * languages a metadata type can name, and whether the agents could be read.
 * One object while its `key` stays the same, so inputs compare it by reference.
 */
export class FileEnv {
  private readonly names: ReadonlySet<string>;
  private readonly everywhere: ReadonlySet<string>;
  private readonly languages: ReadonlySet<string>;

  constructor(
    readonly key: string,
    /** The body agents' names, in the order they are declared. */
    private readonly bodyAgents: readonly string[],
    everywhere: readonly string[],
    /** The fences' languages that a metadata type names (MessageDocument.languagesRead), lower case. */
    languages: readonly string[],
    /** The config's `languages`, as written. */
    private readonly configLanguages: readonly string[],
    readonly agentsKnown: boolean,
  ) {
    this.names = new Set([...bodyAgents, ...everywhere]);
    this.everywhere = new Set(everywhere);
    this.languages = new Set(languages);
  }

  /** Whether an agent of this name is declared anywhere in the file or config. */
  hasAgent(name: string): boolean {
    return this.names.has(name);
  }

  /** Whether an agent of this name is usable after the first `bodyAgentsBefore` body agents. */
  agentUsable(name: string, bodyAgentsBefore: number): boolean {
    if (this.everywhere.has(name)) return true;
    for (let i = 0; i < bodyAgentsBefore && i < this.bodyAgents.length; i++) if (this.bodyAgents[i] === name) return true;
    return false;
  }

  /** Whether a metadata TYPE names a code language (one of the file's fences, the config's, or a common one). */
  isLanguage(type: string): boolean {
    const t = type.toLowerCase();
    return COMMON_LANGUAGES.has(t) || this.languages.has(t) || this.configLanguages.includes(type);
  }
}

/**
 * The environments of recent lints by key: the same object while the key is
 * the same text (compared once per lint, then by reference). More than one,
 * since an editor lints several documents in turn, and one slot would give
 * each a new object and re-run every segment check of the next. Bounded:
 * emptied past ENV_KEPT keys.
 */
const envs = new Map<string, FileEnv>();
const ENV_KEPT = 64;

/**
 * The file's environment for segment checks (FileEnv). `kept`: findings are
 * kept to be reused (an editor's document), so the same environment must
 * be the same object; linted once, a new one is made without its key.
 */
export function fileEnv(doc: MessageDocument, kept: boolean): FileEnv {
  const body: string[] = [];
  const everywhere: string[] = [];
  for (const a of doc.agents) (a.source === 'body' ? body : everywhere).push(a.name);
  const languages = doc.languagesRead.split('\n').filter(Boolean);
  const configLanguages = doc.options.languages ?? [];
  if (!kept) return new FileEnv('', body, everywhere, languages, configLanguages, doc.agentsKnown);
  const key = JSON.stringify([body, everywhere, languages, configLanguages, doc.agentsKnown]);
  let env = envs.get(key);
  if (env) return env;
  if (envs.size >= ENV_KEPT) envs.clear();
  env = new FileEnv(key, body, everywhere, languages, configLanguages, doc.agentsKnown);
  envs.set(key, env);
  return env;
}

/** CellInput.lines: the line is metadata (syntax's isMetadataLine), and some cell has its id. */
const LINE_METADATA = 1;
const LINE_CELL_ID = 2;

const ID_FITS = 1;
const KIND_KNOWN = 2;
const FIRST_WITH_ID = 4;
const BORROWS = 8;

/**
 * A segment check's input. Every field but `offset` is part of the key;
 * `offset` only places reports, which the engine keeps relative to the
 * segment, so a check cannot tell where its segment is.
 */
export class CellInput {
  private constructor(
    readonly segment: Segment,
    private readonly offset: number,
    /** A cell's kind (undefined for the text outside cells). */
    readonly kind: CellKind | undefined,
    /** The metadata line that counts for the cell (wherever it is). */
    readonly metadata: MetadataEntry | undefined,
    /** Where that line's segment starts, relative to this segment (0: its own). */
    private readonly metadataAt: number,
    private readonly flags: number,
    /** Per metadata-shaped line of the segment, two bits (LINE_METADATA, LINE_CELL_ID) from the lowest up; a string of `m`/`f` and `c`/`-` past 15 lines. */
    private readonly lines: number | string,
    private readonly bodyAgentsBefore: number,
    readonly env: FileEnv,
  ) {}

  /**
   * The input of segment `seg` in `doc`, or `kept` when every field of
   * theirs but the offset is the same: then `kept`'s findings hold (the
   * engine keeps them relative to the segment), and a file of 25,000 cells
   * makes no new object for the cells an edit did not touch (2.4 MB less
   * garbage per keystroke). From the walk
   * over the segments in order (run.ts): `cellIndex`, the cell's index
   * among the cells (for a cell); `bodyAgentsBefore`, how many body agents
   * are declared before it; `first`, whether no cell before it has its id.
   */
  static of(doc: MessageDocument, seg: Segment, cellIndex: number, env: FileEnv, bodyAgentsBefore: number, first: boolean, kept?: CellInput): CellInput {
    const offset = doc.offsetOf(seg);
    const cellId = seg instanceof Cell ? seg.id : undefined;
    const entries = seg.entries;
    let lines: number | string = entries.length > 15 ? '' : 0;
    for (let k = 0; k < entries.length; k++) {
      const m = entries[k]!;
      // A cell's own metadata line names the cell itself: no look-up.
      const used = m.node.idText === cellId || doc.cellsById.has(m.node.idText);
      const bits = used ? LINE_METADATA | LINE_CELL_ID : isMetadataLine(doc, m) ? LINE_METADATA : 0;
      if (typeof lines === 'number') lines |= bits << (2 * k);
      else lines += (bits & LINE_METADATA ? 'm' : 'f') + (bits & LINE_CELL_ID ? 'c' : '-');
    }
    let kind: CellKind | undefined;
    let m: MetadataEntry | undefined;
    let metadataAt = 0;
    let flags = 0;
    if (seg instanceof Cell) {
      const facts = doc.factsAt(cellIndex);
      kind = CELL_KINDS[facts & KIND_BITS];
      m = doc.metadataAt(cellIndex);
      metadataAt = m && m.segment !== seg ? doc.offsetOf(m.segment) - offset : 0;
      // syntax's borrowsMetadata, from the line at hand.
      const borrows = m !== undefined && m.segment !== seg && m.segment instanceof Cell && m.segment.id === cellId;
      flags = (facts & FACT_ID_FITS ? ID_FITS : 0) | (facts & FACT_KIND_KNOWN ? KIND_KNOWN : 0) | (first ? FIRST_WITH_ID : 0) | (borrows ? BORROWS : 0);
    }
    if (
      kept &&
      kept.segment === seg &&
      kept.kind === kind &&
      kept.metadata === m &&
      kept.metadataAt === metadataAt &&
      kept.flags === flags &&
      kept.lines === lines &&
      kept.bodyAgentsBefore === bodyAgentsBefore &&
      kept.env === env
    ) {
      return kept;
    }
    return new CellInput(seg, offset, kind, m, metadataAt, flags, lines, bodyAgentsBefore, env);
  }

  /** The segment as a cell (undefined for the text outside cells). */
  get cell(): Cell | undefined {
    return this.segment instanceof Cell ? this.segment : undefined;
  }

  /** The TYPE the cell's metadata line says (`[markdown]`, `[coder]`, ...): not its kind. */
  get type(): string | undefined {
    return this.metadata?.node.type;
  }

  /** An attribute of the cell's metadata line. */
  attr(key: string): string | undefined {
    return this.metadata?.node.attributes.find((a) => a.key === key)?.value;
  }

  /** MessageDocument.idFits of the cell. */
  get idFits(): boolean {
    return (this.flags & ID_FITS) !== 0;
  }

  /** MessageDocument.kindKnown of the cell. */
  get kindKnown(): boolean {
    return (this.flags & KIND_KNOWN) !== 0;
  }

  /** Whether no cell before this one has its id. */
  get firstWithItsId(): boolean {
    return (this.flags & FIRST_WITH_ID) !== 0;
  }

  /** Whether the metadata line that counts lies in another cell of the same id (syntax's borrowsMetadata). */
  get borrowsMetadata(): boolean {
    return (this.flags & BORROWS) !== 0;
  }

  /** Whether the cell's metadata line is its own to report on (duplicate-id reports the others). */
  get ownsMetadata(): boolean {
    return this.firstWithItsId && !this.borrowsMetadata;
  }

  /** Whether a metadata-shaped line of this segment is metadata, not an ordinary footnote (syntax's isMetadataLine). */
  isMetadataLine(m: MetadataEntry): boolean {
    return (this.lineBits(m) & LINE_METADATA) !== 0;
  }

  /** Whether some cell of the file has the id of a metadata-shaped line of this segment. */
  isCellId(m: MetadataEntry): boolean {
    return (this.lineBits(m) & LINE_CELL_ID) !== 0;
  }

  private lineBits(m: MetadataEntry): number {
    const k = this.segment.entries.indexOf(m);
    if (k === -1) throw new Error('a segment check asks about the metadata lines of its segment');
    if (typeof this.lines === 'number') return (this.lines >> (2 * k)) & 3;
    return (this.lines[2 * k] === 'm' ? LINE_METADATA : 0) | (this.lines[2 * k + 1] === 'c' ? LINE_CELL_ID : 0);
  }

  /** Whether an agent of this name is usable at this cell (declared in config, frontmatter or a body line before it). */
  agentUsable(name: string): boolean {
    return this.env.agentUsable(name, this.bodyAgentsBefore);
  }

  /** Offsets in the file of a span of this segment, or of the segment holding the cell's metadata line. */
  abs(span: Span, of: Segment = this.segment): [number, number] {
    let at = this.offset;
    if (of !== this.segment) {
      if (of !== this.metadata?.segment) throw new Error('a segment check reports in its segment or on its metadata line');
      at += this.metadataAt;
    }
    return [at + span.start, at + span.end];
  }
}

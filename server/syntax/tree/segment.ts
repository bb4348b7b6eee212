// The segments of a parsed message file: what its text is cut into
// (byte order mark, frontmatter, text outside the message section, the text
// before the first cell, the cells), each with its own parse.

import type { Span } from '../../base/text.js';
import type { CellParse } from '../format/cell.js';
import type { MetadataNode } from '../format/metadata.js';
import type { MarkerNode } from '../format/marker.js';
import type { FenceBlock } from '../format/scan.js';

export type SegmentKind = 'bom' | 'frontmatter' | 'outside' | 'prologue' | 'cell';

export type CellKind =
  | 'message'
  | 'agent-reply'
  | 'tool-call'
  | 'tool-result'
  | 'code-output'
  /** An output cell whose type names no agent, tool or language. */
  | 'unknown-output'
  /** An output cell without metadata (its type is unknown). */
  | 'untyped-output';

/** The cell types in a fixed order: FileFacts.cellKinds holds their indices. */
export const CELL_KINDS: readonly CellKind[] = ['message', 'agent-reply', 'tool-call', 'tool-result', 'code-output', 'unknown-output', 'untyped-output'];
/** A cell type's index in CELL_KINDS. */
export const CELL_KIND_CODE: Readonly<Record<CellKind, number>> = Object.fromEntries(CELL_KINDS.map((t, i) => [t, i])) as Record<CellKind, number>;

export class Segment {
  constructor(
    /** What part of the file this is; a cell's own kind is `Cell.cellKind`. */
    readonly kind: SegmentKind,
    /**
     * Absolute offset of the segment's first character. Moved in place when
     * a later version of the file takes the segment over (parseAcross).
     */
    public offset: number,
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
  /** A cell always has its parse. */
  declare readonly parse: CellParse;
  /** Index among the cells. */
  index = 0;
  /** The metadata line for this cell's id (wherever it is), if any. */
  metadata?: { segment: Segment; node: MetadataNode };
  /**
   * What the cell is: a message, an agent's reply, a tool call, ... This is
   * the cell's kind as `kindKnown` and the rules say it; not the metadata
   * `type`, which is one of the things it is told from.
   */
  cellKind: CellKind = 'message';

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
   * The kind (`cellKind`) is known, not guessed: false for an output cell
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

  /**
   * The TYPE its metadata line says (`[markdown]`, `[coder]`, ...). A public
   * name kept for compatibility: what the cell is, its kind, is `cellKind`.
   */
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

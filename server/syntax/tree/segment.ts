// The segments of a parsed message file: what its text is cut into
// (byte order mark, frontmatter, text outside the message section, the text
// before the first cell, the cells), each with its own parse.

import type { CellParse } from '../format/cell.js';
import type { MarkerNode } from '../format/marker.js';
import type { MetadataNode } from '../format/metadata.js';
import type { FenceBlock } from '../format/scan.js';
import { NONE, unpacked, type OneOrMore } from '../../base/lists.js';

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

/** The cell types in a fixed order: FileFacts.cellFacts holds their indices. */
export const CELL_KINDS: readonly CellKind[] = ['message', 'agent-reply', 'tool-call', 'tool-result', 'code-output', 'unknown-output', 'untyped-output'];
/** A cell type's index in CELL_KINDS. */
export const CELL_KIND_CODE: Readonly<Record<CellKind, number>> = Object.fromEntries(CELL_KINDS.map((t, i) => [t, i])) as Record<CellKind, number>;

/**
 * A piece of a file's text with its parse: the same in every version that
 * has it, and shared by them. Where it is in a version, and what the
 * file-wide facts make it there, is the version's to say
 * (MessageDocument.offsetOf, kindOf, ...).
 */
export class Segment {
  /** The entries once made: a cell's one entry alone, not in a list of one (56 bytes a cell). */
  private entryList: OneOrMore<MetadataEntry> | undefined = undefined;

  constructor(
    /** What part of the file this is; a cell's own kind is MessageDocument.kindOf. */
    readonly kind: SegmentKind,
    readonly text: string,
    /** Cells, the prologue and outside text are parsed; bom and frontmatter are not. */
    readonly parse: CellParse | undefined,
  ) {}

  /**
   * The metadata-shaped lines of a cell or the prologue (MessageDocument.metadata),
   * made on first use: one object per line, the same in every version.
   */
  get entries(): readonly MetadataEntry[] {
    let made = this.entryList;
    if (made === undefined) {
      const nodes = (this.kind === 'cell' || this.kind === 'prologue') && this.parse ? this.parse.metadata : NONE;
      // Mapped, not pushed: an array grown by push keeps room for 16 more.
      this.entryList = made = nodes.length === 0 ? NONE : nodes.length === 1 ? { segment: this, node: nodes[0]! } : nodes.map((node) => ({ segment: this, node }));
    }
    return unpacked(made);
  }
}

/** A metadata-shaped line of the message section (MessageDocument.metadata), with the segment that holds it. */
export interface MetadataEntry {
  readonly segment: Segment;
  readonly node: MetadataNode;
}

export class Cell extends Segment {
  /** A cell always has its parse. */
  declare readonly parse: CellParse;
  /**
   * The cell's place in the order of the cells of every version that has it
   * (MessageDocument.indexOf): a version made whole numbers its cells 0, 1,
   * 2, ...; the editor's path gives the cells it adds keys between their
   * neighbours'.
   */
  readonly key: number;

  /** The marker line (rules ask for it and the id often: kept here, one load away). */
  readonly marker: MarkerNode;
  /**
   * The id and the kind are fields, not getters: rules read them for every
   * cell, mostly before the JIT has optimized them, where a getter is a call.
   */
  readonly id: string | undefined;
  readonly isOutput: boolean;

  constructor(key: number, text: string, parse: CellParse) {
    super('cell', text, parse);
    this.key = key;
    this.marker = parse.marker!;
    this.id = this.marker.id;
    this.isOutput = this.marker.kind === 'output';
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

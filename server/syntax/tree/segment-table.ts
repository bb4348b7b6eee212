// A version's segments and where each starts: those before the cells (bom,
// frontmatter, outside text, prologue), the cells, and those after them
// (an .md file's outside text). The cells are a ChunkedList, which a
// version made by an edit shares with the previous one but for the chunks
// the edit wrote; the whole path adds them one by one and makes the list
// on first use. Where a cell starts follows from the cells' lengths: the
// cells lie end to end from the first one's start, so an edit moves no
// number for the cells after it.

import { ChunkedList } from '../../base/chunked-list.js';
import { countAtMost } from '../../base/sorted.js';
import { Memo, MEMO } from '../../base/memo.js';
import { Cell, type MetadataEntry, type Segment } from './segment.js';

/** Where each cell of a chunk starts, from the chunk's first (ChunkedList.derived). */
function cellOffsets(cells: readonly Cell[]): Int32Array {
  const out = new Int32Array(cells.length);
  for (let k = 1; k < cells.length; k++) out[k] = out[k - 1]! + cells[k - 1]!.text.length;
  return out;
}

/** How long the text of a chunk's cells is. */
function textLength(cells: readonly Cell[]): number {
  let n = 0;
  for (const c of cells) n += c.text.length;
  return n;
}

const CHUNK_OFFSETS = new Memo<SegmentTable, Float64Array>('table');
const SEGMENTS = new Memo<SegmentTable, readonly Segment[]>('table');
const METADATA = new Memo<SegmentTable, readonly MetadataEntry[]>('table');

export class SegmentTable {
  private readonly before: Segment[] = [];
  private readonly beforeStarts: number[] = [];
  private readonly after: Segment[] = [];
  private readonly afterStarts: number[] = [];
  /** The whole path's cells, until the list is made. */
  private added: Cell[] | undefined = [];
  /** The whole path's: where each cell starts, as the parser found them (a table made by an edit finds them from the cells' lengths). */
  private starts: number[] | undefined = [];
  private list: ChunkedList<Cell> | undefined;
  /** Where the first cell starts (the text's length when there is none). */
  private cellsStart = -1;
  /** @internal Memo slots (base/memo.ts): per chunk of the cells where its first cell starts, the segments, the metadata lines. */
  [MEMO]: unknown[] | undefined = undefined;

  constructor(private readonly textLength: number) {}

  /** The whole path's: the next segment, starting at `offset`. */
  add(seg: Segment, offset: number): void {
    if (seg instanceof Cell) {
      if (this.cellsStart === -1) this.cellsStart = offset;
      this.added!.push(seg);
      this.starts!.push(offset);
    } else if (this.cellsStart === -1) {
      this.before.push(seg);
      this.beforeStarts.push(offset);
    } else {
      this.after.push(seg);
      this.afterStarts.push(offset);
    }
  }

  /** The editor's path's: `prev`'s segments before its cells (it has some), with the cells `cells` (of a text as long as `textLength`). */
  static withCells(prev: SegmentTable, cells: ChunkedList<Cell>, textLength: number): SegmentTable {
    const table = new SegmentTable(textLength);
    table.before.push(...prev.before);
    table.beforeStarts.push(...prev.beforeStarts);
    table.added = undefined;
    table.starts = undefined;
    table.list = cells;
    table.cellsStart = prev.cellsStart;
    return table;
  }

  /** The cells. */
  get cells(): ChunkedList<Cell> {
    if (!this.list) {
      this.list = ChunkedList.of(this.added ?? []);
      this.added = undefined;
      if (this.cellsStart === -1) this.cellsStart = this.textLength;
    }
    return this.list;
  }

  get segments(): readonly Segment[] {
    let segments = SEGMENTS.get(this);
    if (segments === undefined) {
      const cells = this.cells.toArray();
      segments = this.after.length ? [...this.before, ...cells, ...this.after] : this.before.length ? [...this.before, ...cells] : cells;
      SEGMENTS.set(this, segments);
    }
    return segments;
  }

  get metadata(): readonly MetadataEntry[] {
    const known = METADATA.get(this);
    if (known) return known;
    const out: MetadataEntry[] = [];
    for (const seg of this.before) for (const m of seg.entries) out.push(m);
    // Not the segments after the cells: outside text has no metadata lines.
    for (const c of this.cells) for (const m of c.entries) out.push(m);
    METADATA.set(this, out);
    return out;
  }

  /** The segments before the cells (bom, frontmatter, outside text, prologue). */
  get leading(): readonly Segment[] {
    return this.before;
  }

  /** The segments after the cells (an .md file's outside text). */
  get trailing(): readonly Segment[] {
    return this.after;
  }

  get frontmatter(): Segment | undefined {
    return this.before.find((s) => s.kind === 'frontmatter');
  }

  get segmentCount(): number {
    return this.before.length + this.cells.length + this.after.length;
  }

  segment(i: number): Segment | undefined {
    const b = this.before.length;
    if (i < b) return this.before[i];
    const n = this.cells.length;
    return i < b + n ? this.cells.at(i - b) : this.after[i - b - n];
  }

  segmentAt(offset: number): Segment | undefined {
    const cells = this.cells;
    if (cells.length && offset >= this.cellsStart) {
      if (!this.after.length || offset < this.afterStarts[0]!) return cells.at(this.cellIndexAt(offset));
      return this.after[countAtMost(this.afterStarts.length, (k) => this.afterStarts[k]!, offset) - 1];
    }
    const starts = this.beforeStarts;
    return this.before[countAtMost(starts.length, (k) => starts[k]!, offset) - 1] ?? this.segment(0);
  }

  /** The index of the cell holding an offset (the first cell for offsets before it; -1 without cells). */
  cellIndexAt(offset: number): number {
    const cells = this.cells;
    if (cells.length === 0) return -1;
    const starts = this.starts;
    if (starts) return Math.max(0, countAtMost(starts.length, (k) => starts[k]!, offset) - 1);
    const offsets = this.chunkStartOffsets();
    const c = Math.max(0, countAtMost(cells.chunks.length, (k) => offsets[k]!, offset) - 1);
    const rel = cells.derived(c, cellOffsets);
    const k = Math.max(0, countAtMost(rel.length, (j) => rel[j]!, offset - offsets[c]!) - 1);
    return cells.chunkStarts()[c]! + k;
  }

  private chunkStartOffsets(): Float64Array {
    const known = CHUNK_OFFSETS.get(this);
    if (known) return known;
    const cells = this.cells;
    const out = new Float64Array(cells.chunks.length + 1);
    out[0] = this.cellsStart;
    for (let c = 0; c < cells.chunks.length; c++) out[c + 1] = out[c]! + cells.derived(c, textLength);
    CHUNK_OFFSETS.set(this, out);
    return out;
  }

  offsetOf(seg: Segment): number {
    if (seg instanceof Cell) return this.cellStart(this.indexOf(seg));
    const i = this.before.indexOf(seg);
    if (i !== -1) return this.beforeStarts[i]!;
    return this.afterStarts[this.after.indexOf(seg)]!;
  }

  /** Where the cell of index `i` starts. */
  cellStart(i: number): number {
    if (this.starts) return this.starts[i]!;
    const cells = this.cells;
    const c = cells.chunkOf(i);
    return this.chunkStartOffsets()[c]! + cells.derived(c, cellOffsets)[i - cells.chunkStarts()[c]!]!;
  }

  indexOf(cell: Cell): number {
    const cells = this.cells;
    const key = cell.key;
    if ((key | 0) === key && cells.at(key) === cell) return key;
    // The chunk whose first cell's key is the greatest at most `key`, then the cell in it.
    const chunks = cells.chunks;
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (chunks[mid]![0]!.key <= key) lo = mid;
      else hi = mid - 1;
    }
    const chunk = chunks[lo];
    if (!chunk) return -1;
    let a = 0;
    let b = chunk.length - 1;
    while (a <= b) {
      const mid = (a + b) >> 1;
      const k = chunk[mid]!.key;
      if (k < key) a = mid + 1;
      else if (k > key) b = mid - 1;
      else return chunk[mid] === cell ? cells.chunkStarts()[lo]! + mid : -1;
    }
    return -1;
  }

  segmentIndexOf(seg: Segment): number {
    const b = this.before.length;
    if (seg instanceof Cell) {
      const i = this.indexOf(seg);
      return i === -1 ? -1 : b + i;
    }
    const i = this.before.indexOf(seg);
    if (i !== -1) return i;
    const k = this.after.indexOf(seg);
    return k === -1 ? -1 : b + this.cells.length + k;
  }
}

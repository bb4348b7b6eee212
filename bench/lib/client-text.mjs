// The benchmark client's copy of an open document, as lines with their
// start offsets: a change given in offsets becomes the range an editor
// sends without reading the whole text. Reading it (positionAt over a
// string re-made per keystroke) flattened the whole text twice per
// keystroke, and the client's collection of that garbage ran on the
// machine's two cores while the next keystroke was timed.

export class ClientText {
  /** @param {string} text */
  constructor(text) {
    /** Split at LF, as the positions the benchmark sends count lines. */
    this.lines = text.split('\n');
    /** @type {number[]} */
    this.starts = [];
    this.reindex(0);
  }

  /** Line starts from line `from` on. */
  reindex(from) {
    let start = from === 0 ? 0 : this.starts[from - 1] + this.lines[from - 1].length + 1;
    this.starts.length = this.lines.length;
    for (let i = from; i < this.lines.length; i++) {
      this.starts[i] = start;
      start += this.lines[i].length + 1;
    }
  }

  /** The position of an offset (line, UTF-16 character). */
  positionAt(offset) {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo] };
  }

  /** Replaces `remove` characters at `at` by `insert`; returns the change an editor sends for it. */
  apply(at, remove, insert) {
    const start = this.positionAt(at);
    const end = remove ? this.positionAt(at + remove) : start;
    const head = this.lines[start.line].slice(0, start.character);
    const tail = this.lines[end.line].slice(end.character);
    const made = (head + insert + tail).split('\n');
    this.lines.splice(start.line, end.line - start.line + 1, ...made);
    this.reindex(start.line);
    return { range: { start, end }, text: insert };
  }

  get text() {
    return this.lines.join('\n');
  }
}

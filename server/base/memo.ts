// Values computed once per tree object (a document, a cell parse) and kept
// on the object itself, in a slot of an array under the MEMO symbol (which
// JSON.stringify and Object.keys leave out).
//
// Why not a WeakMap keyed by the object: V8's young-generation collector
// (the scavenger, which runs every few megabytes of allocation) treats the
// values of a WeakMap as live, and lets go of an entry only in a full
// collection. Every document linted since the last full collection then
// survived each scavenge through its cached tool-call index, agent settings
// or findings, and was copied and promoted with all it refers to, so a run
// over many files spends much of its collection time copying trees it no
// longer needs (figures in docs/performance.md). Kept on the object, a
// value dies with it.

/** The key of an object's memo slots. */
export const MEMO: unique symbol = Symbol('msglint.memo');

/** An object that can hold memos: a MEMO field, undefined until the first one. */
export interface MemoOwner {
  /** @internal Slots of the Memo instances that hold a value for this object. */
  [MEMO]: unknown[] | undefined;
}

/** The slots given so far, per family. */
const slotsByFamily = new Map<string, number>();

/**
 * Where an object's slots are copied from: a copy of a packed array takes
 * room for just its length. Grown by push from empty, the array took room
 * for 16 slots at the first push and for 40 at the 17th, so one more Memo
 * made at start-up, moving a per-cell slot past 16, grew every cell's array
 * (docs/performance.md).
 */
const EMPTY_SLOTS: undefined[] = [];
for (let i = 0; i < 64; i++) EMPTY_SLOTS.push(undefined);

/** A WeakMap-like cache whose values live on their keys (see above). */
export class Memo<K extends MemoOwner, V> {
  private readonly slot: number;

  /**
   * `family`: the kind of object the values live on. Slots are counted per
   * family, so an object's array is as long as its kind's memos, not as
   * every memo of the program (a cell's parse has a few; a version others).
   */
  constructor(family = 'shared') {
    this.slot = slotsByFamily.get(family) ?? 0;
    slotsByFamily.set(family, this.slot + 1);
  }

  get(owner: K): V | undefined {
    const memo = owner[MEMO];
    return memo === undefined ? undefined : (memo[this.slot] as V | undefined);
  }

  set(owner: K, value: V): void {
    let memo = owner[MEMO];
    // Too short, the array is copied at the length it needs: grown by push it
    // took room for 16 more slots, kept by every tool call's parse.
    if (memo === undefined) owner[MEMO] = memo = EMPTY_SLOTS.slice(0, this.slot + 1);
    else if (memo.length <= this.slot) owner[MEMO] = memo = memo.concat(EMPTY_SLOTS.slice(memo.length, this.slot + 1));
    memo[this.slot] = value;
  }
}

/**
 * Lets go of every value memoized on `owner` (made again when next asked):
 * for a version whose lint is done and whose next reader needs little of
 * what the lint derived (an export's view).
 */
export function forgetMemos(owner: MemoOwner): void {
  owner[MEMO]?.fill(undefined);
}

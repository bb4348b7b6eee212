// JSON.stringify(value, null, 2) in pieces: an export of a long conversation
// is written piece by piece, never made one string. As one string it took
// twice its size in bytes (a conversation with CJK text is a two-byte
// string), a copy of that to be flattened for writing, and its bytes again:
// on a 50 MB file, more than the tree it was made from (docs/performance.md).

/** The pieces of JSON.stringify(value, null, 2), joined exactly; lists and plain objects are split `depth` levels down, what is below each in one piece. */
export function* jsonChunks(value: unknown, depth = 2, indent = ''): Generator<string> {
  if (depth === 0 || !splittable(value)) {
    const text = JSON.stringify(value, null, 2);
    // JSON.stringify's only line breaks are its own (one in a string is `\n`): each one indented as deep as the piece.
    yield indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return yield '[]';
    for (let i = 0; i < value.length; i++) {
      yield `${i === 0 ? '[' : ','}\n${inner}`;
      const item: unknown = value[i];
      // As JSON.stringify: a list holds null where a value has no JSON.
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') yield 'null';
      else yield* jsonChunks(item, depth - 1, inner);
    }
    return yield `\n${indent}]`;
  }
  const record = value as Record<string, unknown>;
  // As JSON.stringify: a key whose value has no JSON is left out.
  const keys = Object.keys(record).filter((k) => {
    const v = record[k];
    return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
  });
  if (keys.length === 0) return yield '{}';
  for (let i = 0; i < keys.length; i++) {
    yield `${i === 0 ? '{' : ','}\n${inner}${JSON.stringify(keys[i])}: `;
    yield* jsonChunks(record[keys[i]!], depth - 1, inner);
  }
  yield `\n${indent}}`;
}

/** A list, or an object made of keys and values (not a Date, a Map or an object with toJSON): what jsonChunks splits. */
function splittable(value: unknown): value is object {
  if (Array.isArray(value)) return true;
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * The pieces joined into strings of at least `size` characters (the last
 * may be shorter): fewer writes. Small enough to die young: a string over
 * 128 KB is made in V8's large-object space and kept until a full
 * collection, so batches of a megabyte grew the heap by their sum.
 */
export function* batched(pieces: Iterable<string>, size = 16_384): Generator<string> {
  let batch: string[] = [];
  let length = 0;
  for (const piece of pieces) {
    batch.push(piece);
    length += piece.length;
    if (length >= size) {
      yield batch.join('');
      batch = [];
      length = 0;
    }
  }
  if (batch.length) yield batch.join('');
}

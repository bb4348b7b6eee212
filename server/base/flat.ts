// Strings kept long in one piece. In V8 a string made by `+` is a tree of
// its pieces (a "cons string": 32 bytes per join, and the pieces), flattened
// only when read character by character. A structure that keeps thousands of
// strings joined piece by piece (an LLM view of a long conversation) keeps
// those trees whole: measured on a 50 MB conversation, more memory than the
// text itself (docs/performance.md).

/**
 * `s`, flattened in place: V8 turns a cons string into its flat text when
 * it is converted to a number, and the pieces become garbage. The same
 * string for the language; only its memory changes. (The `flatstr` package's
 * trick, used by pino.)
 */
export function flat(s: string): string {
  // eslint-disable-next-line @typescript-eslint/no-unused-expressions
  (s as unknown as number) | 0;
  return s;
}

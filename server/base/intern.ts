// Names that repeat through a file (a metadata key, an XML element's name)
// kept as one string each rather than a copy per occurrence: a slice of
// fewer than 13 characters is a copy in V8, kept as long as the tree.

/** Bounded, so that a file of a million distinct names adds nothing here past the first. */
const NAMES = new Map<string, string>();
const NAMES_KEPT = 1024;

/** The string equal to `name` met first (up to NAMES_KEPT of them), else `name` itself. */
export function interned(name: string): string {
  const known = NAMES.get(name);
  if (known !== undefined) return known;
  if (NAMES.size < NAMES_KEPT) NAMES.set(name, name);
  return name;
}

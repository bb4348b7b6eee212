// The facade: what the layers above (rules above all) may use of the syntax tree.

export { Cell, CELL_KINDS, Segment, type CellKind, type SegmentKind } from './tree/segment.js';
export { MessageDocument, type DocumentEdit, type ReplacedCells, type ParseOptions, type TextEditHint } from './tree/message-document.js';
export { COMMON_LANGUAGES, ID_FITS, KIND_BITS, KIND_KNOWN, MESSAGE_TYPES, RESERVED_TYPES, type AgentDefinition, type MetadataEntry } from './tree/file-facts.js';
export { parse } from './edit/parse.js';
export { isMetadataLine } from './tree/footnotes.js';
export { borrowsMetadata } from './tree/facts.js';

// What rules and features ask of a tree beyond its classes: the facade's
// queries and types, so that nothing above imports the tree's internals.
export { cellsOfUnknownType, cellsWithoutId, hasRepeatedIds } from './tree/segment-lists.js';
export { cellsOfKind } from './tree/cells-by-kind.js';
export { largestNumericRoot } from './tree/roots.js';
export { idMisfit, WELL_FORMED_ID } from './tree/ids.js';
export { isMap, unclosedFrontmatter } from './format/frontmatter.js';
export type { Line } from './format/lines.js';
export type { MarkerProblem } from './format/marker.js';
export type { MetadataNode, MetadataProblem } from './format/metadata.js';
export { escapeBody, unescapeBody, unescapeReplyStart, lineEscapeAt, opaqueSpans, OpaqueCursor } from './format/escape.js';

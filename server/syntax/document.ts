// The parsed message file, the module the rest of msglint imports it from:
// segment.ts (the segment and cell classes), message-document.ts (the
// document), parse.ts (parsing), reuse.ts (what a new version takes from the
// previous one), typing.ts (the typing path), facts.ts (file-wide facts).

export { Cell, Segment, type CellType, type SegmentKind } from './segment.js';
export {
  COMMON_LANGUAGES,
  MESSAGE_TYPES,
  MessageDocument,
  RESERVED_TYPES,
  type AgentDefinition,
  type DocumentEdit,
  replacedSegments,
  type MetadataEntry,
  type ParseOptions,
  type TextEditHint,
} from './message-document.js';
export { parse } from './parse.js';
export { commonPrefix, commonSuffix } from './reuse.js';
export { shapeOf } from './typing.js';
export { borrowsMetadata, type Structure } from './facts.js';

// msglint's library API: the syntax tree, the rules and the linter.
export { parse, MessageDocument, Cell, Segment, COMMON_LANGUAGES, MESSAGE_TYPES } from './syntax/document.js';
export type { CellType, SegmentKind, AgentDefinition, ParseOptions } from './syntax/document.js';
export type { CellParse, Block, Directive } from './syntax/cell.js';
export type { MarkerNode, IdNode } from './syntax/marker.js';
export type { MetadataNode, AttributeNode } from './syntax/metadata.js';
export type { Frontmatter, FrontmatterAgent, YamlEntry } from './syntax/frontmatter.js';
export type { Span, FenceBlock, ToolElement, RegionNode } from './syntax/scan.js';
export { LineIndex } from './syntax/lines.js';
export { isMessageFile } from './syntax/detect.js';
export { contentLines, outputLines, outputPrefix } from './syntax/output.js';
export type { OutputLine, OutputStream } from './syntax/output.js';
export { lint, lintAndFix, lintDocument, ruleSeverity } from './engine/lint.js';
export { applyEdits } from './engine/fix.js';
export { allRules, getRule } from './engine/registry.js';
export type * from './engine/types.js';
export { toLLMView, formatLLMView, exportText, createFormatter, viewBlockers, VIEW_RULES, ExportOptionError, EXPORT_FORMATS, CODE_EXECUTION_TOOL } from './export/index.js';
export { OpenAIFormatter, AnthropicFormatter, VercelFormatter, ContextJsonFormatter, ConsoleFormatter, listAgents, agentsText } from './export/index.js';
export type * from './export/index.js';

// Every rule, in the order of the catalog (../docs/rules/ has one page each).
import type { Rule } from '../server/engine/types.js';

// Structure
import cellMarker from './cell-marker.js';
import cellIdMissing from './cell-id-missing.js';
import cellIdSyntax from './cell-id-syntax.js';
import duplicateId from './duplicate-id.js';
import metadataMissing from './metadata-missing.js';
import metadataUnused from './metadata-unused.js';
import metadataPlacement from './metadata-placement.js';
import metadataSyntax from './metadata-syntax.js';
import duplicateAttribute from './duplicate-attribute.js';
import cellType from './cell-type.js';
import unknownAgent from './unknown-agent.js';
import historyValue from './history-value.js';
import historySummary from './history-summary.js';
import attributeValue from './attribute-value.js';
import emptyCell from './empty-cell.js';
import codeCellBlock from './code-cell-block.js';
import unclosedFence from './unclosed-fence.js';
// Tool calls
// Code execution
// Agents and frontmatter
// Sections
// LLM view
// Directives
import unknownRule from './unknown-rule.js';
import unusedDisable from './unused-disable.js';

export const rules: Rule[] = [
  // Structure
  cellMarker,
  cellIdMissing,
  cellIdSyntax,
  duplicateId,
  metadataMissing,
  metadataUnused,
  metadataPlacement,
  metadataSyntax,
  duplicateAttribute,
  cellType,
  unknownAgent,
  historyValue,
  historySummary,
  attributeValue,
  emptyCell,
  codeCellBlock,
  unclosedFence,
  // Tool calls
  // Code execution
  // Agents and frontmatter
  // Sections
  // LLM view
  // Directives
  unknownRule,
  unusedDisable,
];

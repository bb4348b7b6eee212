// Every rule, in the order of the catalog (../docs/rules/ has one page each).
import type { Rule } from '../server/engine/types.js';

// The file
import fileTooLarge from './file-too-large.js';
import fileEncoding from './file-encoding.js';
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
import cellKind from './cell-type.js';
import unknownAgent from './unknown-agent.js';
import historyValue from './history-value.js';
import historySummary from './history-summary.js';
import attributeValue from './attribute-value.js';
import emptyCell from './empty-cell.js';
import codeCellBlock from './code-cell-block.js';
import unclosedFence from './unclosed-fence.js';
// Tool calls
import toolCallParent from './tool-call-parent.js';
import toolCallNonce from './tool-call-nonce.js';
import nonceReused from './nonce-reused.js';
import toolResultOrphan from './tool-result-orphan.js';
import toolResultSequence from './tool-result-sequence.js';
import toolCallUnanswered from './tool-call-unanswered.js';
import toolNameMismatch from './tool-name-mismatch.js';
import toolNameSyntax from './tool-name-syntax.js';
import toolXml from './tool-xml.js';
import toolXmlStructure from './tool-xml-structure.js';
import cdataUnterminated from './cdata-unterminated.js';
import cdataPlaceholder from './cdata-placeholder.js';
import cdataRecommended from './cdata-recommended.js';
import legacyJsonToolCall from './legacy-json-tool-call.js';
import legacyJsonInvalid from './legacy-json-invalid.js';
// Code execution
import codeOutputParent from './code-output-parent.js';
import codeOutputSequence from './code-output-sequence.js';
import codeOutputStream from './code-output-stream.js';
import codeOutputLanguage from './code-output-language.js';
// Agents and frontmatter
import frontmatterYaml from './frontmatter-yaml.js';
import agentConfig from './agent-config.js';
import agentTemperatureIgnored from './agent-temperature-ignored.js';
import agentSystemPrompt from './agent-system-prompt.js';
import agentName from './agent-name.js';
import defaultAgent from './default-agent.js';
// Sections
import messageSectionMissing from './message-section-missing.js';
import messageSectionNotLast from './message-section-not-last.js';
import cellOutsideSection from './cell-outside-section.js';
// LLM view
import historySplitPair from './history-split-pair.js';
import contextWindow from './context-window.js';
// Secrets
import secret from './secret.js';
// Directives
import unknownRule from './unknown-rule.js';
import unusedDisable from './unused-disable.js';

export const rules: Rule[] = [
  fileTooLarge,
  fileEncoding,
  cellMarker,
  cellIdMissing,
  cellIdSyntax,
  duplicateId,
  metadataMissing,
  metadataUnused,
  metadataPlacement,
  metadataSyntax,
  duplicateAttribute,
  cellKind,
  unknownAgent,
  historyValue,
  historySummary,
  attributeValue,
  emptyCell,
  codeCellBlock,
  unclosedFence,
  toolCallParent,
  toolCallNonce,
  nonceReused,
  toolResultOrphan,
  toolResultSequence,
  toolCallUnanswered,
  toolNameMismatch,
  toolNameSyntax,
  toolXml,
  toolXmlStructure,
  cdataUnterminated,
  cdataPlaceholder,
  cdataRecommended,
  legacyJsonToolCall,
  legacyJsonInvalid,
  codeOutputParent,
  codeOutputSequence,
  codeOutputStream,
  codeOutputLanguage,
  frontmatterYaml,
  agentConfig,
  agentTemperatureIgnored,
  agentSystemPrompt,
  agentName,
  defaultAgent,
  messageSectionMissing,
  messageSectionNotLast,
  cellOutsideSection,
  historySplitPair,
  contextWindow,
  secret,
  unknownRule,
  unusedDisable,
];

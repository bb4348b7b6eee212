// The tool-call layer (spec sections 4 and 8): reading `<tool>` elements,
// the id relations between agent replies, tool calls and tool results, and
// the XML writer used by the legacy rewrite. Syntax level: nothing here
// reports; the rules in rules/ do.

export { readToolCalls, toolCallsOf, readToolElement } from './read.js';
export type { ToolCallInfo, ToolProblem, ToolProblemRule, StructureProblemKind, LegacyProblemKind, CdataWrap, ArgumentElement, LegacyInfo } from './facts.js';
export { toolGraph, toolCells, isToolCellType } from './graph.js';
export { toolProblemsIn } from './problems.js';
export type { ToolGraph, CallRef, ResultRef } from './graph.js';
export { legacyToXml, toolElementXml, cdataSection, cdataExact, needsCdata, singularOf, isListItemName, unwritableString, jsonText } from './rewrite.js';
export type { ToolElementCall } from './rewrite.js';
export { ARGUMENT_TYPES, RAW_ARGUMENTS_TYPE } from './arg-types.js';
export type { ArgumentType } from './arg-types.js';
export { readXml, textValue, isXmlName, MAX_DEPTH } from './xml.js';
export type { XmlElement, XmlAttribute, XmlPiece, XmlError, XmlReadResult } from './xml.js';
export { parseJson, jsonValue, MAX_JSON_DEPTH } from './json.js';
export type { JsonNode, JsonValue, JsonError } from './json.js';
export { argumentsForm, ArgumentsTooDeep, nestingOf, valueChildren, MAX_ELEMENT_LEVEL, MAX_JSON_CONTAINER_LEVEL } from './nesting.js';
export type { Nesting } from './nesting.js';
export { exactNumber, inexactNumbersIn, sentAs, JSON_NUMBER } from './numbers.js';

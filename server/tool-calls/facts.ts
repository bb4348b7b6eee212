// What reading a `<tool>` element finds (spec section 8): the call's parts
// with their spans, and the problems as facts (what and where) for the
// tool-call rules to word and fix. read.ts fills these in.

import type { Span } from '../base/text.js';
import type { RegionNode, ToolElement } from '../syntax/format/scan.js';
import type { ArgumentType } from './arg-types.js';
import type { JsonNode, JsonValue } from './json.js';
import type { XmlElement, XmlError } from './xml.js';

/** Putting the text of element `name`, [start, end), in a CDATA section reads well: `text` is the section. */
export interface CdataWrap {
  name: string;
  start: number;
  end: number;
  text: string;
}

/** What is wrong in the shape of a well-formed `<tool>` (tool-xml-structure). */
export type StructureProblemKind =
  | 'text-in-tool'
  | 'not-allowed'
  | 'second'
  | 'no-tool-name'
  | 'tool-name-elements'
  | 'tool-name-empty'
  | 'server-name-elements'
  | 'server-name-empty'
  | 'text-in-arguments'
  | 'text-beside-elements'
  /** An argument element's `type` that is none of ARGUMENT_TYPES (`detail`: the value). */
  | 'type-unknown'
  /** `<arguments type="…">` with a type other than `json` (`detail`: the value). */
  | 'arguments-type'
  /** `<arguments type="json">` with child elements: at the first. */
  | 'json-with-elements'
  /** A value that does not fit its element's `type` (`type`; `detail`: the text, for number and boolean). */
  | 'type-mismatch'
  /** A `number` whose text is a JSON number that a double does not hold exactly (`detail`: the text; numbers.ts). */
  | 'number-inexact'
  /** An attribute other than `type` on `<arguments>` or an argument element (`detail`: its name). */
  | 'attribute-not-allowed';

/** What is wrong with a `<tool>` body in the legacy JSON form (legacy-json-invalid). */
export type LegacyProblemKind = 'json' | 'not-an-object' | 'repeated-key' | 'server-name' | 'tool-name' | 'arguments' | 'unknown-key' | 'no-tool-name';

/**
 * A fact found while reading one `<tool>` element, for the rule named by
 * `rule`, which words it and makes its fix. Offsets are relative to the cell text.
 */
export type ToolProblem = Span &
  (
    | { rule: 'tool-xml'; kind: 'unclosed' }
    | {
        rule: 'tool-xml';
        kind: 'xml';
        error: XmlError;
        /** A broken start tag after text in the element: the `<` may be meant as text. */
        ltMayBeText: boolean;
        wrap?: CdataWrap;
      }
    | { rule: 'cdata-unterminated' }
    /** `close` is the `]CDATA-END` of a pair; `fixable` when the text between holds no `]]>`. */
    | { rule: 'cdata-placeholder'; kind: 'pair'; close: Span; fixable: boolean }
    | { rule: 'cdata-placeholder'; kind: 'open' | 'close' }
    /**
     * `name`: the element concerned; `first`: the start tag of the first one,
     * for `second`; `declared`: the `type` attribute a problem comes from.
     */
    | { rule: 'tool-xml-structure'; kind: StructureProblemKind; name?: string; first?: Span; type?: string; detail?: string; declared?: Span }
    /** `decoded`: the value as CDATA would hold it, when the text can be kept exactly. */
    | { rule: 'cdata-recommended'; name: string; decoded?: string }
    /** `detail`: the JSON error, or the key concerned. */
    | { rule: 'legacy-json-invalid'; kind: LegacyProblemKind; detail?: string }
    /** `body`: between `<tool>` and `</tool>`; `rewrite` as in LegacyInfo. */
    | { rule: 'legacy-json-tool-call'; body: Span; rewrite: LegacyInfo['rewrite'] }
  );

export type ToolProblemRule = ToolProblem['rule'];

/**
 * Where an element is, from `<` of its start tag to the end of its end tag.
 * What ToolCallInfo keeps of an element rather than the element: the
 * element would keep its whole tree (pieces, children, parent), in every
 * tool cell's memo for as long as the document lives.
 */
export interface ElementSpan extends Span {
  name: string;
}

/** An element inside `<arguments>`. */
export interface ArgumentElement {
  element: ElementSpan;
  /** Element names from `<arguments>` down, joined with `/` (`edits/edit/search`). */
  path: string;
  /** For elements without child elements: the string value and its span (first to last significant character). */
  text?: { value: string; start: number; end: number };
  /** Whether its character data uses CDATA (or the placeholder spelling). */
  cdata: boolean;
  /** Its `type` attribute, when it is one of ARGUMENT_TYPES (spec section 8, "Typed values"). */
  type?: ArgumentType;
}

/** `<arguments type="json">`: the arguments as the model wrote them. */
export interface RawArguments {
  /** The text: CDATA as it is, blanks at the ends of plain text dropped. */
  text: string;
  /** Its span in the cell (first to last significant character; empty at the start tag's end when there is none). */
  start: number;
  end: number;
  /** The text read as JSON, when it is one JSON value (of any kind); undefined when it is not JSON. */
  value?: JsonValue;
  /** The numbers of that JSON, as written, that `value` does not hold exactly (numbers.ts); absent when there are none. */
  inexact?: string[];
  /** The text is nested deeper than the JSON reader reads (MAX_JSON_DEPTH): no value, though it may be JSON. */
  tooDeep?: true;
}

export interface LegacyInfo {
  /** The JSON object, with spans. */
  node: JsonNode;
  /** Its plain value. */
  value: JsonValue;
  span: Span;
  /** The XML body a rewrite puts between `<tool>` and `</tool>`, or why there is none. */
  rewrite: { body: string } | { refused: string };
}

export interface ToolCallInfo {
  /** The element as the scanner found it (cell-relative offsets). */
  element: ToolElement;
  form: 'xml' | 'json';
  /** `<server_name>` (or the legacy `server_name`) when given. */
  serverName?: string;
  /** The server the call goes to: `serverName`, or `local`. */
  server: string;
  /** `<tool_name>` (or the legacy `tool_name`), when it could be read. */
  toolName?: string;
  /**
   * The arguments (spec section 8): an element with text is a string, an
   * element with child elements an object, repeated sibling elements a list
   * (as are the children of `<files>` when they are all `<file>`, or all
   * `<item>`). A `type` attribute makes a value a number, boolean, null,
   * list or object (even with one or no item). Empty when there is no
   * `<arguments>`; for `<arguments type="json">`, the parsed text when it is
   * a JSON object, else empty (see rawArguments). The legacy form keeps its
   * JSON values.
   */
  arguments: Record<string, JsonValue>;
  /** For `<arguments type="json">`: its text, and the value when it is JSON. */
  rawArguments?: RawArguments;
  /**
   * XML form, once well-formed: the first `<tool_name>` and `<arguments>`.
   * Only what a reader reads is kept: the spans of `<server_name>` and of
   * each argument element (ArgumentElement, made while reading) were about
   * 300 bytes a call (docs/performance.md).
   */
  toolNameElement?: ElementSpan;
  argumentsElement?: ElementSpan;
  /** The span of `toolName` in `<tool_name>` (xml.ts textValue): where a rename writes. */
  toolNameText?: Span;
  /** CDATA sections the scanner found in the element. */
  cdata: RegionNode[];
  legacy?: LegacyInfo;
  problems: ToolProblem[];
  /** True when server, tool name and arguments were read and the element has no error (warnings aside). */
  ok: boolean;
}

/** XML's white space: space, tab, line feed, carriage return. */
export function isBlankCode(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

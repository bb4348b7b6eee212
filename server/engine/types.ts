// The contract between the syntax tree, the rules, the engine and its users
// (CLI, language server, library). Offsets are UTF-16 code units into the
// document text; lines and characters are 0-based, as in LSP.

import type { EncodingProblem } from '../base/decode.js';
import type { Range, TextEdit } from '../base/text.js';
import type { MessageDocument, Segment, TextEditHint } from '../syntax/document.js';
import type { CellInput } from './cell-input.js';

export type { Position, Range, TextEdit } from '../base/text.js';

export type Severity = 1 | 2;
export type SeverityName = 'off' | 'warn' | 'error';

export type RuleGroup =
  | 'file'
  | 'structure'
  | 'tool-calls'
  | 'code-execution'
  | 'agents'
  | 'sections'
  | 'llm-view'
  | 'secrets'
  | 'directives';

export interface Suggestion {
  desc: string;
  fix: TextEdit;
}

export interface RelatedInformation {
  range: Range;
  message: string;
}

export interface Diagnostic {
  ruleId: string;
  severity: Severity;
  message: string;
  range: Range;
  /** Safe automatic fix, applied by --fix and fix-all. */
  fix?: TextEdit;
  /** Offered in the editor and in JSON output, never applied automatically. */
  suggestions?: Suggestion[];
  related?: RelatedInformation[];
  /** LSP diagnostic tags: 1 = Unnecessary, 2 = Deprecated. */
  tags?: (1 | 2)[];
  /**
   * How many problems it stands for, when more than one: the note after the
   * first MAX_PROBLEMS_PER_RULE problems of a rule, which counts the rest
   * (engine/problem-cap.ts), so that counts and --max-warnings stay true.
   */
  count?: number;
}

export interface LintResult {
  filePath: string;
  /** False when the file is not a message file (plain .md): no diagnostics. */
  isMessageFile: boolean;
  diagnostics: Diagnostic[];
  /** The text that was linted (after fixes, when fixing). */
  text: string;
  /** Present when fixes were applied: the text before fixing. */
  originalText?: string;
}

export type RuleSetting = SeverityName | 0 | 1 | 2 | [SeverityName | 0 | 1 | 2, unknown?];

export interface MsglintConfig {
  root?: boolean;
  rules?: Record<string, RuleSetting>;
  /** Agent names defined elsewhere (not in the file). */
  agents?: string[];
  /** Extra code-output language names. */
  languages?: string[];
  /** Glob patterns of files not to lint. */
  ignores?: string[];
}

export interface LintOptions {
  fileName?: string;
  config?: MsglintConfig;
  /** Report directives that suppressed nothing (unused-disable). */
  reportUnusedDisableDirectives?: boolean;
  /** Reuse cell parses from an earlier parse of this document. */
  previous?: MessageDocument;
  /** The change from `previous`'s text, when known (see ParseOptions.edit). */
  edit?: TextEditHint;
  /**
   * What decoding the file's bytes found (server/base/decode.ts), reported
   * as `file-encoding`: a binary file is not linted; a text with bytes that
   * did not decode is linted as decoded, and lintAndFix applies no fix.
   */
  encoding?: EncodingProblem;
}

export interface ReportDescriptor {
  /** Absolute offsets [start, end). */
  at: [number, number];
  /** `{{line}}` in the message stands for the line (from 1) of the first related location. */
  message: string;
  /** One or more edits; several are merged into one covering edit. */
  fix?: TextEdit | TextEdit[];
  suggestions?: { desc: string; fix: TextEdit | TextEdit[] }[];
  related?: { at: [number, number]; message: string }[];
  tags?: (1 | 2)[];
  /**
   * A lower severity for this report than the rule's (e.g. an unknown key is
   * a warning in an otherwise error rule). Never raises the configured one.
   */
  severity?: Severity;
}

export interface RuleContext {
  doc: MessageDocument;
  /** The rule's options from config (second element of [severity, options]). */
  options: unknown;
  report(descriptor: ReportDescriptor): void;
  /**
   * Whether a cell strictly between two cell indices (-1 and the cell count
   * for open ends), an output cell or a message cell as asked, has an id
   * that names nothing reliably: no id, one that does not fit
   * (`MessageDocument.idFits`), or one another cell has. A link to an id that no cell
   * has may be to that cell: the rule that would call the link broken stays
   * quiet, and cell-id-missing, cell-id-syntax or duplicate-id reports the
   * id (a root cause is reported once). A query of the version's facts.
   */
  doubtfulIdBetween(from: number, to: number, output: boolean): boolean;
}

/** What a segment check is given besides its input: its options and where to report. */
export interface SegmentContext {
  /** The rule's options from config (second element of [severity, options]). */
  options: unknown;
  report(descriptor: ReportDescriptor): void;
}

export interface RuleMeta {
  id: string;
  group: RuleGroup;
  severity: 'error' | 'warning';
  /** 'fix': --fix applies it; 'suggestion': offered only; null: neither. */
  fixable: 'fix' | 'suggestion' | null;
  description: string;
  docs: string;
  /** Validate rule options from config; return an error message or null. */
  validateOptions?: (options: unknown) => string | null;
  /**
   * The JSON schema of the options, for msglint.schema.json (editors): the
   * same verdicts as validateOptions, which test/config/schema.test.ts holds.
   */
  optionsSchema?: Record<string, unknown>;
}


/**
 * A rule says what it reads by the checks it has, each of one shape: a
 * segment check is memoized by what it may read, a document check runs on
 * every lint.
 */
export interface Rule {
  meta: RuleMeta;
  /** Checks that look across the whole document: run on every lint of every version. */
  check?(context: RuleContext): void;
  /**
   * Checks of one segment (a cell, or text outside cells): `input` is all
   * they may read (CellInput, engine/cell-input.ts), and their findings are
   * kept with the segment's parse and reused while the input stays the same.
   * Every range such a check reports lies inside the segment or on its
   * cell's metadata line (CellInput.abs places it).
   */
  checkSegment?(input: CellInput, context: SegmentContext): void;
}

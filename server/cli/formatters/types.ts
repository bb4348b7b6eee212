import type { RuleMeta, TextEdit } from '../../engine/types.js';

/** One problem, in ESLint's JSON shape: 1-based lines and columns, end exclusive. */
export interface LintMessage {
  ruleId: string;
  severity: 1 | 2;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  fix?: TextEdit;
  suggestions?: { desc: string; fix: TextEdit }[];
  /** How many problems it stands for, when more than one (Diagnostic.count: the rule's problems not shown). */
  count?: number;
}

/** One linted message file, in ESLint's JSON shape (the JSON formatter prints it as is). */
export interface FileReport {
  /** Absolute path, or "<stdin>" for unnamed standard input. */
  filePath: string;
  messages: LintMessage[];
  /** Always empty: kept for ESLint consumers that read it. */
  suppressedMessages: LintMessage[];
  errorCount: number;
  fatalErrorCount: number;
  warningCount: number;
  fixableErrorCount: number;
  fixableWarningCount: number;
  /** The fixed text, present when fixing changed the file. */
  output?: string;
  /** Always empty: kept for ESLint consumers that read it. */
  usedDeprecatedRules: never[];
}

export interface FormatContext {
  cwd: string;
  color: boolean;
  /** Every known rule, for formats that describe rules (SARIF). */
  rules: readonly RuleMeta[];
  version: string;
  /** package.json "homepage", for SARIF's informationUri. */
  homepage?: string;
  /**
   * The text each report was made from, by filePath, for a format that
   * reads it (rdjson counts columns in UTF-8 bytes). Standard input is
   * always here: it is never read again from the file it is named after.
   */
  sources?: ReadonlyMap<string, string>;
}

export type Formatter = (reports: readonly FileReport[], context: FormatContext) => string;

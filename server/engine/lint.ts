// Linting a text or a parsed document with a rule set: the runner (run.ts),
// then disable comments.
// createLinter (linter.ts) binds these to a list of rules. Each lint is a
// generator of steps (steps.ts); `lint` and `lintDocument` drain it.

import { forgetMemos } from '../base/memo.js';
import { toolGraph } from '../tool-calls/graph.js';
import { parse, type MessageDocument } from '../syntax/document.js';
import { isMessageFile } from '../syntax/format/detect.js';
import { isMdFile } from '../syntax/tree/message-document.js';
import { applyDirectives, collectDirectives, Suppressions, type DirectiveFinding } from './directives.js';
import { applyEdits } from './fix.js';
import { fileVerdict, invalidEncodingMessage } from './limits.js';
import { ProblemCap } from './problem-cap.js';
import { ruleSeverity, type RuleSet } from './rule-set.js';
import { lintWhole, type OnceFindings } from './run.js';
import { drain, type Steps } from './steps.js';
import { timingCollector } from './timing.js';
import type { Diagnostic, LintOptions, LintResult, MsglintConfig, TextEdit } from './types.js';

const NO_CONFIG: MsglintConfig = Object.freeze({});

/** Runs every enabled rule of `ruleSet` over a parsed document, then applies disable comments. */
export function lintDocument(ruleSet: RuleSet, doc: MessageDocument, options: LintOptions = {}): Diagnostic[] {
  return drain(lintParsed(ruleSet, doc, options, true));
}

/**
 * Lints a parsed document that no later version follows (an export's):
 * keeps nothing for one, and, as `lint`, filters its findings by disable
 * comments and the cap as they come (problem-cap.ts), so memory stays bounded.
 */
export function lintDocumentOnce(ruleSet: RuleSet, doc: MessageDocument, options: LintOptions = {}): Diagnostic[] {
  const diagnostics = drain(lintParsed(ruleSet, doc, options, false));
  // What the rules read, of the version (the tool graph, cells by kind, …) and of each cell (its tool
  // calls), is made again if asked: an export's view, made next, needs little of it, and on a long
  // file it is tens of MB.
  forgetMemos(doc);
  for (const cell of doc.cells) if (cell.parse) forgetMemos(cell.parse);
  return diagnostics;
}

/**
 * lintDocument in steps (steps.ts). Given up before its end, the document is
 * as it was: linting it again starts afresh (segments whose findings were
 * cached on the way cost a comparison).
 */
export function lintDocumentSteps(ruleSet: RuleSet, doc: MessageDocument, options: LintOptions = {}): Steps<Diagnostic[]> {
  return lintParsed(ruleSet, doc, options, true);
}

/**
 * `keep`: cache segment findings with each segment's parse for later
 * versions (false for a text linted once, as `lint` does). What follows the
 * rules (disable comments, the cap) is one step, so a lint given up has done all of it or none. `fixes`:
 * given, it receives the fix of every problem left after disable comments,
 * those past the cap (problem-cap.ts) too.
 */
function* lintParsed(ruleSet: RuleSet, doc: MessageDocument, options: LintOptions, keep: boolean, fixes?: TextEdit[]): Steps<Diagnostic[]> {
  if (!doc.isMessageFile) return [];
  const config = options.config ?? NO_CONFIG;
  const directives = collectDirectives(doc, (id) => ruleSet.getRule(id) !== undefined);
  const suppressions = new Suppressions(directives.directives);
  // A text linted once (and not fixed): its findings are filtered and capped as they come.
  const once: OnceFindings | undefined = !keep && !fixes && !doc.edit ? { suppressions, cap: new ProblemCap() } : undefined;
  const raw = yield* lintWhole(ruleSet, doc, config, keep, once);
  yield;
  // For the next version (an editor's): from the previous version's while it
  // is at hand, or made whole once, so that the next keystroke only updates them.
  if (keep) prepareForEdits(doc);
  let cap = once?.cap;
  if (!cap) {
    const kept = applyDirectives(raw.diagnostics.slice(), suppressions);
    if (fixes) for (let i = 0; i < kept.length; i++) if (kept[i]!.fix) fixes.push(kept[i]!.fix!);
    cap = new ProblemCap();
    for (let i = 0; i < kept.length; i++) cap.take(kept[i]!);
  }
  return finish(ruleSet, doc, cap, directives.unknownRules, suppressions, options, config);
}

/**
 * Makes what the next version of an editor's document updates rather than
 * makes (the tool graph, the line starts), so that the first keystroke
 * after a version the whole path made does not build them.
 */
function prepareForEdits(doc: MessageDocument): void {
  toolGraph(doc);
  // Line starts: the next version's are this one's with the edit's lines.
  void doc.lines;
}

/** The problems kept (`cap`) with those of the engine's own rules (unknown-rule, unused-disable, file-encoding), capped too, in file order. */
function finish(
  ruleSet: RuleSet,
  doc: MessageDocument,
  cap: ProblemCap,
  unknownRules: readonly DirectiveFinding[],
  suppressions: Suppressions,
  options: LintOptions,
  config: MsglintConfig,
): Diagnostic[] {
  /** The findings of one of the engine's rules when `config` turns it on. */
  const add = (ruleId: string, found: readonly DirectiveFinding[], unnecessary: boolean): void => {
    const rule = ruleSet.getRule(ruleId);
    const severity = rule ? ruleSeverity(rule, config) : 0;
    if (!severity) return;
    for (let i = 0; i < found.length; i++) {
      const { at, message } = found[i]!;
      const d: Diagnostic = { ruleId, severity, message, range: doc.range(at[0], at[1]) };
      if (unnecessary) d.tags = [1]; // LSP tag Unnecessary
      cap.take(d);
    }
  };
  add('unknown-rule', unknownRules, false);
  if (options.reportUnusedDisableDirectives) add('unused-disable', suppressions.unused(), true);
  const encoding = options.encoding;
  if (encoding?.kind === 'invalid') {
    const at = Math.min(encoding.offset, doc.text.length);
    add('file-encoding', [{ at: [at, Math.min(at + 1, doc.text.length)], message: invalidEncodingMessage(encoding) }], false);
  }
  const kept = cap.result();
  kept.sort((a, b) => a.range.start.offset - b.range.start.offset || a.range.end.offset - b.range.end.offset || a.ruleId.localeCompare(b.ruleId));
  return kept;
}

/** Whether the engine lints a text of this name: all but an ordinary `.md` file without a message section (as parse tells). */
function linted(fileName: string | undefined, text: string): boolean {
  return !isMdFile(fileName) || isMessageFile(fileName!, text);
}

/**
 * The one finding of a text that is not linted (limits.ts: too large, or
 * binary), or undefined when it is linted. Empty when the file is not a
 * message file or the rule is off.
 */
export function unlinted(ruleSet: RuleSet, text: string, options: LintOptions = {}): Diagnostic[] | undefined {
  const verdict = fileVerdict(text, options.encoding);
  if (!verdict) return undefined;
  if (!linted(options.fileName, text)) return [];
  const rule = ruleSet.getRule(verdict.ruleId);
  const severity = rule ? ruleSeverity(rule, options.config) : 0;
  if (!severity) return [];
  const start = { line: 0, character: 0, offset: 0 };
  return [{ ruleId: verdict.ruleId, severity, message: verdict.message, range: { start, end: { ...start } } }];
}

/** `once`: the tree is dropped after one lint (see ParseOptions.once). */
export function parseForLint(text: string, options: LintOptions = {}, once = false): MessageDocument {
  const times = timingCollector();
  if (!times) return parseOnly(text, options, once);
  const t0 = performance.now();
  const doc = parseOnly(text, options, once);
  times.parse += performance.now() - t0;
  times.lints++;
  return doc;
}

function parseOnly(text: string, options: LintOptions, once: boolean): MessageDocument {
  return parse(text, {
    fileName: options.fileName,
    agents: options.config?.agents,
    languages: options.config?.languages,
    previous: options.previous,
    edit: options.edit,
    once,
  });
}

export function lint(ruleSet: RuleSet, text: string, options: LintOptions = {}): LintResult {
  return drain(lintSteps(ruleSet, text, options));
}

/** `lint` in steps (steps.ts): the parse is the first step, then lintDocumentSteps's. */
export function* lintSteps(ruleSet: RuleSet, text: string, options: LintOptions = {}): Steps<LintResult> {
  const verdict = unlinted(ruleSet, text, options);
  if (verdict) return { filePath: options.fileName ?? '<text>', isMessageFile: linted(options.fileName, text), diagnostics: verdict, text };
  const doc = parseForLint(text, options, !options.previous);
  yield;
  return {
    filePath: options.fileName ?? '<text>',
    isMessageFile: doc.isMessageFile,
    diagnostics: yield* lintParsed(ruleSet, doc, options, false),
    text,
  };
}

/**
 * Applies fixes and lints again until nothing changes (at most `maxPasses`
 * passes, 10 by default). The result's diagnostics are those of the final text.
 */
export function lintAndFix(ruleSet: RuleSet, text: string, options: LintOptions & { maxPasses?: number } = {}): LintResult {
  // Bytes that did not decode are not the file: what a fix would write back is
  // not what was there. A file not linted has nothing to fix.
  if (options.encoding || fileVerdict(text, undefined)) return lint(ruleSet, text, options);
  const maxPasses = options.maxPasses ?? 10;
  let current = text;
  let doc = parseForLint(current, options);
  let edits: TextEdit[] = [];
  let diagnostics = drain(lintParsed(ruleSet, doc, options, true, edits));
  for (let pass = 0; pass < maxPasses; pass++) {
    if (edits.length === 0) break;
    const { text: next } = applyEdits(current, edits);
    if (next === current) break;
    current = next;
    doc = parseForLint(current, { ...options, previous: doc, edit: undefined });
    edits = [];
    diagnostics = drain(lintParsed(ruleSet, doc, options, true, edits));
  }
  return {
    filePath: options.fileName ?? '<text>',
    isMessageFile: doc.isMessageFile,
    diagnostics,
    text: current,
    originalText: text,
  };
}

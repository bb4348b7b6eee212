// Linting a text or a parsed document with a rule set: the runner (run.ts)
// or, after a prose edit, the re-lint (relint.ts), then disable comments.
// createLinter (linter.ts) binds these to a list of rules.

import { parse, type MessageDocument } from '../syntax/document.js';
import { differences } from './contract.js';
import { applyDirectives, collectDirectives } from './directives.js';
import { applyEdits, fixesOf } from './fix.js';
import { keepFindings, lintEdited } from './relint.js';
import { ruleSeverity, type RuleSet } from './rule-set.js';
import { lintWhole, type RawFindings } from './run.js';
import { timingCollector } from './timing.js';
import type { Diagnostic, LintOptions, LintResult, MsglintConfig } from './types.js';

<<<<<<< HEAD
/** The severity a rule runs at under a config, or 0 when it is off. */
export function ruleSeverity(rule: Rule, config: MsglintConfig | undefined): 0 | Severity {
  const setting: RuleSetting | undefined = config?.rules?.[rule.meta.id];
  if (setting === undefined) return rule.meta.severity === 'error' ? 2 : 1;
  const s = Array.isArray(setting) ? setting[0] : setting;
  if (s === 'off' || s === 0) return 0;
  if (s === 'warn' || s === 1) return 1;
  return 2;
}

function ruleOptions(rule: Rule, config: MsglintConfig | undefined): unknown {
  const setting = config?.rules?.[rule.meta.id];
  return Array.isArray(setting) ? setting[1] : undefined;
}

/** A finding kept with a segment's parse: offsets relative to the segment, edits merged. */
interface LocalFinding {
  at: [number, number];
  message: string;
  severity?: Severity;
  fix?: TextEdit;
  suggestions?: { desc: string; fix: TextEdit }[];
  related?: { at: [number, number]; message: string }[];
  tags?: (1 | 2)[];
}

interface SegmentFinding {
  ruleId: string;
  finding: LocalFinding;
}
const NO_FINDINGS: readonly SegmentFinding[] = Object.freeze([]);

interface LocalCacheEntry {
  signature: unknown[];
  rulesKey: string;
  findings: readonly SegmentFinding[];
}

// Findings of segment checks, per parse. Parses are shared between versions
// of a document, so an untouched cell's findings are reused.
const localCache = new Memo<CellParse, LocalCacheEntry>();

function sameSignature(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** File-wide facts a segment signature reads, computed once per lint. */
interface SignatureFacts {
  env: string;
  /** Offsets from which body agents can be used, ascending. */
  bodyAgents: number[];
  /** Offsets where the default agent changes, with the new default. */
  defaults: { from: number; name: string | undefined }[];
  /** Cells that repeat an earlier cell's id. */
  repeated: Set<Cell>;
}

function signatureFacts(doc: MessageDocument, env: string): SignatureFacts {
  const bodyAgents = doc.agents.filter((a) => a.source === 'body').map((a) => a.from).sort((x, y) => x - y);
  const defaults: SignatureFacts['defaults'] = [{ from: 0, name: doc.defaultAgentAt(0) }];
  for (let i = 0, list = bodyAgents; i < list.length; i++) {
    const from = list[i]!;
    const name = doc.defaultAgentAt(from);
    if (name !== defaults[defaults.length - 1]!.name) defaults.push({ from, name });
  }
  const repeated = new Set<Cell>();
  for (const cells of doc.cellsById.values()) for (let i = 1; i < cells.length; i++) repeated.add(cells[i]!);
  return { env, bodyAgents, defaults, repeated };
}

/** How many sorted offsets are <= at. */
function countUpTo(sorted: number[], at: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What a segment check may depend on besides the segment's own text. */
function segmentSignature(doc: MessageDocument, seg: Segment, facts: SignatureFacts): unknown[] {
  // Per metadata line of the segment: is it metadata (not an ordinary
  // footnote), and does a cell use its id.
  let lines = '';
  for (let i = 0, list = seg.parse?.metadata ?? []; i < list.length; i++) {
    const node = list[i]!;
    lines += isMetadataLine(doc, { segment: seg, node }) ? 'm' : 'f';
    lines += doc.cellsById.has(node.id.id) ? 'c' : '-';
  }
  if (!(seg instanceof Cell)) return [seg.kind, facts.env, lines];
  const m = seg.metadata;
  // A metadata line elsewhere is reported relative to this cell: its distance counts.
  const metadataAt = m && m.segment !== seg ? m.segment.offset - seg.offset : 0;
  const bodyAgents = facts.bodyAgents.length ? countUpTo(facts.bodyAgents, seg.offset) : 0;
  let defaultAgent = facts.defaults[0]!.name;
  for (const d of facts.defaults) if (d.from <= seg.offset) defaultAgent = d.name;
  // Whether the id fits and the kind is known depend on other cells too (a metadata line in another cell with the same id).
  return [seg.kind, facts.env, lines, seg.cellType, m?.node, metadataAt, bodyAgents, defaultAgent, !facts.repeated.has(seg), seg.idFits, seg.kindKnown];
}

function shiftEdit(e: TextEdit, by: number): TextEdit {
  return { range: [e.range[0] + by, e.range[1] + by], text: e.text };
}

/**
 * The findings of one version before disable comments, each with where it
 * came from: the index of the segment whose checks found it, or the id of
 * the cross-cell rule. Kept per document, so that the next version, when it
 * differs only in prose (DocumentEdit.sameStructure), re-checks only the
 * edited segments and the rules that read prose, and moves the rest.
 */
interface RawFindings {
  config: MsglintConfig;
  diagnostics: Diagnostic[];
  origins: (number | string)[];
}
const rawFindings = new Memo<MessageDocument, RawFindings>();
=======
>>>>>>> wt-engine
const NO_CONFIG: MsglintConfig = Object.freeze({});

/** Runs every enabled rule of `ruleSet` over a parsed document, then applies disable comments. */
export function lintDocument(ruleSet: RuleSet, doc: MessageDocument, options: LintOptions = {}): Diagnostic[] {
  return lintParsed(ruleSet, doc, options, true);
}

/** `keep`: keep findings for later versions (false for a text linted once, as `lint` does). */
function lintParsed(ruleSet: RuleSet, doc: MessageDocument, options: LintOptions, keep: boolean): Diagnostic[] {
  if (!doc.isMessageFile) return [];
  const config = options.config ?? NO_CONFIG;
  const raw = lintEdited(ruleSet, doc, config) ?? lintWhole(ruleSet, doc, config, keep);
  if (raw.reused && checkingIncremental()) checkIncremental(ruleSet, doc, options, config, raw);
  if (keep) keepFindings(doc, raw);
  // Used: let the previous version go (see DocumentEdit.previous).
  if (doc.edit) doc.edit.previous = undefined;
  return applyDisableComments(ruleSet, doc, raw.diagnostics.slice(), options, config);
}

/**
 * The incremental contract, checked at run time when MSGLINT_CHECK_INCREMENTAL=1
 * (the incremental tests set it): findings that reuse an earlier version's
 * must equal those of a fresh parse and full lint of the same text, or a rule
 * depends on more than its meta (or Rule.checkSegment's contract) declares.
 */
function checkingIncremental(): boolean {
  return typeof process !== 'undefined' && process.env.MSGLINT_CHECK_INCREMENTAL === '1';
}

function checkIncremental(ruleSet: RuleSet, doc: MessageDocument, options: LintOptions, config: MsglintConfig, raw: RawFindings): void {
  const fresh = parseOnly(doc.text, { ...options, previous: undefined, edit: undefined }, true);
  const full = lintWhole(ruleSet, fresh, config, false);
  const problem = differences(raw.diagnostics, full.diagnostics);
  if (problem) throw new Error(`msglint: incremental lint differs from a full lint (MSGLINT_CHECK_INCREMENTAL) in ${problem}`);
}

function applyDisableComments(ruleSet: RuleSet, doc: MessageDocument, out: Diagnostic[], options: LintOptions, config: MsglintConfig): Diagnostic[] {
  const { directives, unknownRules } = collectDirectives(doc, (id) => ruleSet.getRule(id) !== undefined);
  const { kept, unused } = applyDirectives(out, directives);
  const unknownRule = ruleSet.getRule('unknown-rule');
  const unknownSeverity = unknownRule ? ruleSeverity(unknownRule, config) : 0;
  if (unknownSeverity) {
    for (let i = 0, list = unknownRules; i < list.length; i++) {
      const u = list[i]!;
      kept.push({ ruleId: 'unknown-rule', severity: unknownSeverity, message: `Unknown rule '${u.name}' in a msglint directive.`, range: doc.range(u.at[0], u.at[1]) });
    }
  }
  const unusedRule = ruleSet.getRule('unused-disable');
  const unusedSeverity = unusedRule ? ruleSeverity(unusedRule, config) : 0;
  if (options.reportUnusedDisableDirectives && unusedSeverity) {
    for (let i = 0, list = unused; i < list.length; i++) {
      const u = list[i]!;
      kept.push({ ruleId: 'unused-disable', severity: unusedSeverity, message: u.message, range: doc.range(u.at[0], u.at[1]), tags: [1] });
    }
  }
  kept.sort((a, b) => a.range.start.offset - b.range.start.offset || a.range.end.offset - b.range.end.offset || a.ruleId.localeCompare(b.ruleId));
  return kept;
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
  const doc = options.previous ? parseForLint(text, options) : parseForLint(text, options, true);
  return {
    filePath: options.fileName ?? '<text>',
    isMessageFile: doc.isMessageFile,
    diagnostics: lintParsed(ruleSet, doc, options, false),
    text,
  };
}

/**
 * Applies fixes and lints again until nothing changes (at most `maxPasses`
 * passes, 10 by default). The result's diagnostics are those of the final text.
 */
export function lintAndFix(ruleSet: RuleSet, text: string, options: LintOptions & { maxPasses?: number } = {}): LintResult {
  const maxPasses = options.maxPasses ?? 10;
  let current = text;
  let doc = parseForLint(current, options);
  let diagnostics = lintDocument(ruleSet, doc, options);
  for (let pass = 0; pass < maxPasses; pass++) {
    const edits = fixesOf(diagnostics);
    if (edits.length === 0) break;
    const { text: next } = applyEdits(current, edits);
    if (next === current) break;
    current = next;
    doc = parseForLint(current, { ...options, previous: doc, edit: undefined });
    diagnostics = lintDocument(ruleSet, doc, options);
  }
  return {
    filePath: options.fileName ?? '<text>',
    isMessageFile: doc.isMessageFile,
    diagnostics,
    text: current,
    originalText: text,
  };
}

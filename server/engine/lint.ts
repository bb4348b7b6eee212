import type { CellParse } from '../syntax/cell.js';
import { Cell, parse, type MessageDocument, type Segment } from '../syntax/document.js';
import { isMetadataLine } from '../syntax/metadata.js';
import { applyDirectives, collectDirectives } from './directives.js';
import { applyEdits, fixesOf, mergeEdits } from './fix.js';
import { differences } from './contract.js';
import type { Diagnostic, LintOptions, LintResult, MsglintConfig, ReportDescriptor, Rule, RuleSetting, Severity, TextEdit } from './types.js';
import { Memo } from '../syntax/memo.js';
import { addRuleTime, timingCollector, type LintTimes } from './timing.js';

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
  ruleSet: RuleSet;
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
  return [seg.kind, facts.env, lines, seg.cellType, m?.node, metadataAt, bodyAgents, defaultAgent, !facts.repeated.has(seg)];
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
  ruleSet: RuleSet;
  config: MsglintConfig;
  /** Whether findings of an earlier version were used (checked by MSGLINT_CHECK_INCREMENTAL). */
  reused: boolean;
  diagnostics: Diagnostic[];
  origins: (number | string)[];
}
const rawFindings = new Memo<MessageDocument, RawFindings>();
const NO_CONFIG: MsglintConfig = Object.freeze({});

/**
 * The rules one linter runs (see createLinter in linter.ts), with what the
 * engine works out from them once: the rules by id, and per config object
 * the rules it turns on.
 */
export class RuleSet {
  private readonly byId: ReadonlyMap<string, Rule>;
  /** Per config object: a CLI run lints many files with one. */
  readonly plans = new WeakMap<MsglintConfig, RulePlan>();

  constructor(readonly rules: readonly Rule[]) {
    const byId = new Map<string, Rule>();
    for (const rule of rules) {
      if (byId.has(rule.meta.id)) throw new Error(`Two rules have the id '${rule.meta.id}'.`);
      byId.set(rule.meta.id, rule);
    }
    this.byId = byId;
  }

  getRule(id: string): Rule | undefined {
    return this.byId.get(id);
  }
}

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
  if (keep) rawFindings.set(doc, raw);
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

/** Turns findings into diagnostics of one document. */
function reporter(doc: MessageDocument, raw: RawFindings) {
  const toDiagnostic = (ruleId: string, severity: Severity, d: LocalFinding): Diagnostic => {
    const diag: Diagnostic = {
      ruleId,
      severity: d.severity !== undefined ? (Math.min(d.severity, severity) as Severity) : severity,
      message: d.message,
      range: doc.range(d.at[0], d.at[1]),
    };
    if (d.fix) diag.fix = d.fix;
    if (d.suggestions?.length) diag.suggestions = d.suggestions;
    if (d.related?.length) diag.related = d.related.map((r) => ({ range: doc.range(r.at[0], r.at[1]), message: r.message }));
    if (d.tags?.length) diag.tags = d.tags;
    return diag;
  };
  const normalize = (d: ReportDescriptor): LocalFinding => ({
    at: d.at,
    message: d.message,
    severity: d.severity,
    fix: d.fix ? mergeEdits(doc.text, d.fix) : undefined,
    suggestions: d.suggestions?.length ? d.suggestions.map((s) => ({ desc: s.desc, fix: mergeEdits(doc.text, s.fix) })) : undefined,
    related: d.related,
    tags: d.tags,
  });
  const push = (origin: number | string, d: Diagnostic): void => {
    raw.diagnostics.push(d);
    raw.origins.push(origin);
  };
  const internalError = (ruleId: string, e: unknown): void => {
    // A rule that throws must not take the others down: report it where it can be seen.
    push(ruleId, {
      ruleId,
      severity: 2,
      message: `Internal error in rule '${ruleId}': ${(e as Error)?.message ?? String(e)}. Please report this.`,
      range: doc.range(0, 0),
    });
  };
  const runCheck = (rule: Rule, severity: Severity, config: MsglintConfig, times: LintTimes | undefined): void => {
    const ruleId = rule.meta.id;
    const t0 = times ? performance.now() : 0;
    try {
      rule.check!({
        doc,
        config,
        options: ruleOptions(rule, config),
        report(d) {
          push(ruleId, toDiagnostic(ruleId, severity, normalize(d)));
        },
      });
    } catch (e) {
      internalError(ruleId, e);
    }
    if (times) addRuleTime(times, ruleId, performance.now() - t0);
  };
  /**
   * Runs segment checks; the returned function gives a segment's findings,
   * offsets relative to the segment. One context per rule for the whole
   * document, not one per rule and segment, which would be thousands of
   * segments times dozens of rules of garbage.
   */
  /** `spent`: when timing, milliseconds per rule of `segmentRules` are added to it. */
  const segmentChecker = (segmentRules: SegmentRule[], config: MsglintConfig, spent: Float64Array | undefined): ((seg: Segment) => readonly SegmentFinding[]) => {
    let base = 0;
    const found: LocalFinding[] = [];
    const checks = segmentRules.map(({ rule, options: ruleOpts }) => ({
      rule,
      context: {
        doc,
        config,
        options: ruleOpts,
        report(d: ReportDescriptor) {
          const f = normalize(d);
          found.push({
            ...f,
            at: [f.at[0] - base, f.at[1] - base],
            fix: f.fix && shiftEdit(f.fix, -base),
            suggestions: f.suggestions?.map((x) => ({ desc: x.desc, fix: shiftEdit(x.fix, -base) })),
            related: f.related?.map((r) => ({ at: [r.at[0] - base, r.at[1] - base] as [number, number], message: r.message })),
          });
        },
      },
    }));
    // Indexed loops: this runs for every segment and rule, mostly before the
    // JIT has optimized it, where each for-of step is an iterator call.
    return (seg) => {
      let findings: SegmentFinding[] | undefined;
      base = seg.offset;
      // One clock reading per rule: the end of one check starts the next.
      let clock = spent ? performance.now() : 0;
      for (let r = 0; r < checks.length; r++) {
        const { rule, context } = checks[r]!;
        if (found.length) found.length = 0;
        let threw = false;
        try {
          rule.checkSegment!(seg, context);
        } catch (e) {
          internalError(rule.meta.id, e);
          threw = true;
        }
        if (spent) {
          const now = performance.now();
          spent[r] += now - clock;
          clock = now;
        }
        if (threw) continue;
        for (let k = 0; k < found.length; k++) (findings ??= []).push({ ruleId: rule.meta.id, finding: found[k]! });
      }
      if (found.length) found.length = 0;
      return findings ?? NO_FINDINGS;
    };
  };
  const pushSegmentFindings = (index: number, seg: Segment, findings: readonly SegmentFinding[], severityOf: Map<string, Severity>): void => {
    const base = seg.offset;
    for (let i = 0, list = findings; i < list.length; i++) {
      const { ruleId, finding: f } = list[i]!;
      push(
        index,
        toDiagnostic(ruleId, severityOf.get(ruleId)!, {
          ...f,
          at: [f.at[0] + base, f.at[1] + base],
          fix: f.fix && shiftEdit(f.fix, base),
          suggestions: f.suggestions?.map((x) => ({ desc: x.desc, fix: shiftEdit(x.fix, base) })),
          related: f.related?.map((r) => ({ at: [r.at[0] + base, r.at[1] + base] as [number, number], message: r.message })),
        }),
      );
    }
  };
  return { runCheck, segmentChecker, pushSegmentFindings };
}

interface SegmentRule {
  rule: Rule;
  severity: Severity;
  options: unknown;
}

/** The rules a config turns on, worked out once per config object (a CLI run lints many files with one). */
interface RulePlan {
  segmentRules: SegmentRule[];
  severityOf: Map<string, Severity>;
  /** Which segment rules run with which options: a change of config invalidates cached findings. */
  rulesKey: string;
  checks: { rule: Rule; severity: Severity }[];
}

function planOf(ruleSet: RuleSet, config: MsglintConfig): RulePlan {
  let plan = ruleSet.plans.get(config);
  if (!plan) {
    const segmentRules: SegmentRule[] = [];
    const checks: RulePlan['checks'] = [];
    for (let i = 0, list = ruleSet.rules; i < list.length; i++) {
      const rule = list[i]!;
      const severity = ruleSeverity(rule, config);
      if (severity === 0) continue;
      if (rule.checkSegment) segmentRules.push({ rule, severity, options: ruleOptions(rule, config) });
      if (rule.check) checks.push({ rule, severity });
    }
    plan = {
      segmentRules,
      severityOf: new Map(segmentRules.map((r) => [r.rule.meta.id, r.severity])),
      rulesKey: JSON.stringify(segmentRules.map((r) => [r.rule.meta.id, r.options ?? null])),
      checks,
    };
    ruleSet.plans.set(config, plan);
  }
  return plan;
}

function lintWhole(ruleSet: RuleSet, doc: MessageDocument, config: MsglintConfig, keep: boolean): RawFindings {
  const raw: RawFindings = { ruleSet, config, reused: false, diagnostics: [], origins: [] };
  const { runCheck, segmentChecker, pushSegmentFindings } = reporter(doc, raw);
  const times = timingCollector();

  // Segment checks: segments outside, rules inside, so each segment's
  // signature is computed and compared once, and an unchanged segment costs
  // one comparison however many rules there are.
  const { segmentRules, severityOf, rulesKey, checks } = planOf(ruleSet, config);
  const spent = times && new Float64Array(segmentRules.length);
  if (segmentRules.length) {
    const facts = keep ? signatureFacts(doc, JSON.stringify([doc.agents.map((a) => [a.name, a.source]), [...doc.codeLanguages], config.languages ?? [], config.agents ?? []])) : undefined;
    const segments = doc.segments;
    let check: ((seg: Segment) => readonly SegmentFinding[]) | undefined;
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i]!;
      const parse = seg.parse;
      if (!parse) continue;
      let findings: readonly SegmentFinding[];
      if (facts) {
        const signature = segmentSignature(doc, seg, facts);
        let entry = localCache.get(parse);
        if (!entry || entry.ruleSet !== ruleSet || entry.rulesKey !== rulesKey || !sameSignature(entry.signature, signature)) {
          entry = { signature, ruleSet, rulesKey, findings: (check ??= segmentChecker(segmentRules, config, spent))(seg) };
          localCache.set(parse, entry);
        } else raw.reused = true;
        findings = entry.findings;
      } else {
        // Linted once: nothing to compare signatures with or to keep them for.
        findings = (check ??= segmentChecker(segmentRules, config, spent))(seg);
      }
      if (findings.length) pushSegmentFindings(i, seg, findings, severityOf);
    }
  }

  if (spent) addSegmentTimes(times!, segmentRules, spent);
  for (let i = 0; i < checks.length; i++) runCheck(checks[i]!.rule, checks[i]!.severity, config, times);
  return raw;
}

/**
 * The findings of a version that differs from the previous one only in
 * prose (DocumentEdit.sameStructure): the edited segments are checked again,
 * and so are the cross-cell rules that read prose; every other finding is
 * the previous version's, moved by the edit. Undefined when that does not
 * apply (a whole lint is needed).
 */
function lintEdited(ruleSet: RuleSet, doc: MessageDocument, config: MsglintConfig): RawFindings | undefined {
  const edit = doc.edit;
  if (!edit?.sameStructure) return undefined;
  const before = edit.previous && rawFindings.get(edit.previous);
  if (!before || before.ruleSet !== ruleSet || before.config !== config) return undefined;
  const changed = new Set(edit.changed);
  const delta = edit.newEnd - edit.oldEnd;
  const move = (p: number): number => (p <= edit.start ? p : p >= edit.oldEnd ? p + delta : NaN);
  const moveEdit = (e: TextEdit): TextEdit => ({ range: [move(e.range[0]), move(e.range[1])], text: e.text });
  const raw: RawFindings = { ruleSet, config, reused: true, diagnostics: [], origins: [] };
  // Lines added or removed: the rules that name line numbers in their
  // messages run again when they found something (what they find does not
  // depend on line numbers, only what they say).
  const linesMoved = (edit.linesAdded ?? 0) !== 0;
  const again = new Set<string>();
  for (let i = 0; i < before.diagnostics.length; i++) {
    const origin = before.origins[i]!;
    if (typeof origin === 'number' ? changed.has(origin) : ruleSet.getRule(origin)?.meta.incremental?.readsProse) continue;
    const d = before.diagnostics[i]!;
    if (linesMoved && ruleSet.getRule(d.ruleId)?.meta.incremental?.mentionsLines) {
      // Only cross-cell checks name lines; a segment check that did would need its segments checked again.
      if (typeof origin === 'number') return undefined;
      again.add(origin);
      continue;
    }
    const start = move(d.range.start.offset);
    const end = move(d.range.end.offset);
    if (Number.isNaN(start) || Number.isNaN(end)) return undefined;
    const moved: Diagnostic = { ...d, range: doc.range(start, end) };
    if (d.fix) moved.fix = moveEdit(d.fix);
    if (d.suggestions) moved.suggestions = d.suggestions.map((s) => ({ desc: s.desc, fix: moveEdit(s.fix) }));
    if (d.related) moved.related = d.related.map((r) => ({ range: doc.range(move(r.range.start.offset), move(r.range.end.offset)), message: r.message }));
    const edits = [moved.fix, ...(moved.suggestions ?? []).map((s) => s.fix)];
    if (edits.some((e) => e && (Number.isNaN(e.range[0]) || Number.isNaN(e.range[1])))) return undefined;
    if (moved.related?.some((r) => Number.isNaN(r.range.start.offset) || Number.isNaN(r.range.end.offset))) return undefined;
    raw.diagnostics.push(moved);
    raw.origins.push(origin);
  }
  const { runCheck, segmentChecker, pushSegmentFindings } = reporter(doc, raw);
  const { segmentRules, severityOf, checks } = planOf(ruleSet, config);
  const times = timingCollector();
  const spent = times && new Float64Array(segmentRules.length);
  if (segmentRules.length) {
    const check = segmentChecker(segmentRules, config, spent);
    for (let j = 0, list = edit.changed; j < list.length; j++) {
      const i = list[j]!;
      const seg = doc.segments[i]!;
      if (seg.parse) pushSegmentFindings(i, seg, check(seg), severityOf);
    }
  }
  if (spent) addSegmentTimes(times!, segmentRules, spent);
  for (const { rule, severity } of checks) if (rule.meta.incremental?.readsProse || again.has(rule.meta.id)) runCheck(rule, severity, config, times);
  return raw;
}

function addSegmentTimes(times: LintTimes, segmentRules: SegmentRule[], spent: Float64Array): void {
  for (let r = 0; r < segmentRules.length; r++) addRuleTime(times, segmentRules[r]!.rule.meta.id, spent[r]!);
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

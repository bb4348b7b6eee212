// The rule runner: every enabled rule over a document. Segment checks run
// segment by segment, their findings cached with each cell's parse and
// reused while the cell's text and signature stay the same; cross-cell checks
// run over the whole document, on every lint.

import type { CellParse } from '../syntax/format/cell.js';
import { Cell, hasRepeatedIds, type MessageDocument, type Segment } from '../syntax/document.js';
import { Memo } from '../base/memo.js';
import { CellInput, fileEnv } from './cell-input.js';
import { doubtfulIdBetween } from '../syntax/tree/segment-lists.js';
import { mergeEdits } from './fix.js';
import { renderLines } from './line-mentions.js';
import { ruleOptions, type RuleSet, type SegmentRule } from './rule-set.js';
import type { ProblemCap } from './problem-cap.js';
import type { Suppressions } from './directives.js';
import { SEGMENTS_PER_STEP, type Steps } from './steps.js';
import { addRuleTime, timingCollector, type LintTimes } from './timing.js';
import type { Diagnostic, MsglintConfig, ReportDescriptor, Rule, RuleContext, SegmentContext, Severity, TextEdit } from './types.js';

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
const NO_FINDINGS: readonly SegmentFinding[] = []; // not frozen: see base/lists.ts

interface LocalCacheEntry {
  input: CellInput;
  ruleSet: RuleSet;
  rulesKey: string;
  findings: readonly SegmentFinding[];
}

// Findings of segment checks, per parse, with the input they were made from.
// Parses are shared between versions of a document, so an untouched cell's
// findings are reused while its input is the same.
const localCache = new Memo<CellParse, LocalCacheEntry>('parse');

function shiftEdit(e: TextEdit, by: number): TextEdit {
  return by === 0 ? e : { range: [e.range[0] + by, e.range[1] + by], text: e.text };
}

/**
 * The findings of one version before disable comments: the segment checks'
 * first, then the cross-cell checks'.
 */
export interface RawFindings {
  diagnostics: Diagnostic[];
  /** A text linted once: findings go through it as they come, and `diagnostics` stays empty. */
  once?: OnceFindings;
}

/**
 * Where the findings of a text linted once go (lint.ts makes it): each is
 * dropped when a disable comment suppresses it, or counted without being
 * made when its rule has more before it than the cap keeps. Nothing is kept
 * for a later version, so memory is bounded however many findings there are.
 */
export interface OnceFindings {
  suppressions: Suppressions;
  cap: ProblemCap;
}

/** What a check is given. */
function context(doc: MessageDocument, options: unknown, report: (d: ReportDescriptor) => void): RuleContext {
  return { doc, options, report, doubtfulIdBetween: (from, to, output) => doubtfulIdBetween(doc, from, to, output) };
}

/** What a segment check is given besides its input. */
function segmentContext(options: unknown, report: (d: ReportDescriptor) => void): SegmentContext {
  return { options, report };
}

/** Turns findings into diagnostics of one document. */
function reporter(doc: MessageDocument, raw: RawFindings) {
  /** An edit of a report, merged and shifted by `by`. */
  const placed = (e: TextEdit | TextEdit[], by: number): TextEdit => shiftEdit(mergeEdits(doc.text, e), by);
  /** A report (or a segment's kept finding) as a diagnostic, its offsets shifted by `by`. */
  const toDiagnostic = (ruleId: string, severity: Severity, d: ReportDescriptor, by: number): Diagnostic => {
    const first = d.related?.[0];
    const diag: Diagnostic = {
      ruleId,
      severity: d.severity !== undefined ? (Math.min(d.severity, severity) as Severity) : severity,
      message: renderLines(d.message, first && first.at[0] + by, doc.lines),
      range: doc.range(d.at[0] + by, d.at[1] + by),
    };
    if (d.fix) diag.fix = placed(d.fix, by);
    if (d.suggestions?.length) diag.suggestions = d.suggestions.map((s) => ({ desc: s.desc, fix: placed(s.fix, by) }));
    if (d.related?.length) diag.related = d.related.map((r) => ({ range: doc.range(r.at[0] + by, r.at[1] + by), message: r.message }));
    if (d.tags?.length) diag.tags = d.tags;
    return diag;
  };
  const once = raw.once;
  /** A report made a diagnostic and kept, or, linting once, dropped or only counted (OnceFindings): then undefined. */
  const add = (ruleId: string, severity: Severity, d: ReportDescriptor, by: number): Diagnostic | undefined => {
    if (once) {
      const offset = d.at[0] + by;
      if (once.suppressions.suppresses(ruleId, offset, doc.lines.lineOf(offset))) return undefined;
      if (!once.cap.offer(ruleId, offset, d.severity !== undefined ? (Math.min(d.severity, severity) as Severity) : severity)) return undefined;
      const diag = toDiagnostic(ruleId, severity, d, by);
      once.cap.keep(diag);
      return diag;
    }
    const diag = toDiagnostic(ruleId, severity, d, by);
    raw.diagnostics.push(diag);
    return diag;
  };
  const internalError = (ruleId: string, e: unknown): void => {
    // A rule that throws must not take the others down: report it where it can be seen.
    add(ruleId, 2, { at: [0, 0], message: `Internal error in rule '${ruleId}': ${(e as Error)?.message ?? String(e)}. Please report this.` }, 0);
  };
  const runCheck = (rule: Rule, severity: Severity, config: MsglintConfig, times: LintTimes | undefined): void => {
    const ruleId = rule.meta.id;
    const t0 = times ? performance.now() : 0;
    try {
      rule.check!(context(doc, ruleOptions(rule, config), (d) => void add(ruleId, severity, d, 0)));
    } catch (e) {
      internalError(ruleId, e);
    }
    if (times) addRuleTime(times, ruleId, performance.now() - t0);
  };
  /**
   * Runs segment checks; the returned function gives a segment's findings,
   * offsets relative to the segment. One context per rule for the whole
   * document, not one per rule and segment, which would be thousands of
   * segments times dozens of rules of garbage. `spent`: when timing,
   * milliseconds per rule of `segmentRules` are added to it.
   */
  const segmentChecker = (segmentRules: SegmentRule[], spent: Float64Array | undefined): ((input: CellInput) => readonly SegmentFinding[]) => {
    let base = 0;
    const found: LocalFinding[] = [];
    const checks = segmentRules.map(({ rule, options: ruleOpts, severity }) => ({
      rule,
      context: segmentContext(ruleOpts, (d: ReportDescriptor) => {
          // Linted once, nothing is cached: a finding goes straight to the cap,
          // so that a segment of a million findings does not hold them all.
          if (once) {
            add(rule.meta.id, severity, d, 0);
            return;
          }
          found.push({
            at: [d.at[0] - base, d.at[1] - base],
            message: d.message,
            severity: d.severity,
            fix: d.fix && placed(d.fix, -base),
            suggestions: d.suggestions?.length ? d.suggestions.map((s) => ({ desc: s.desc, fix: placed(s.fix, -base) })) : undefined,
            related: d.related?.map((r) => ({ at: [r.at[0] - base, r.at[1] - base], message: r.message })),
            tags: d.tags,
          });
      }),
    }));
    // Indexed loops: this runs for every segment and rule, mostly before the
    // JIT has optimized it, where each for-of step is an iterator call.
    return (input) => {
      let findings: SegmentFinding[] | undefined;
      base = doc.offsetOf(input.segment);
      // One clock reading per rule: the end of one check starts the next.
      let clock = spent ? performance.now() : 0;
      for (let r = 0; r < checks.length; r++) {
        const { rule, context } = checks[r]!;
        if (found.length) found.length = 0;
        let threw = false;
        try {
          rule.checkSegment!(input, context);
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
  const pushSegmentFindings = (seg: Segment, findings: readonly SegmentFinding[], severityOf: Map<string, Severity>): void => {
    const base = doc.offsetOf(seg);
    for (let i = 0, list = findings; i < list.length; i++) {
      const { ruleId, finding } = list[i]!;
      add(ruleId, severityOf.get(ruleId)!, finding, base);
    }
  };
  return { runCheck, segmentChecker, pushSegmentFindings };
}

/**
 * Every enabled rule over `doc`. `keep`: cache segment findings with each
 * segment's parse (a document an editor keeps editing); `once`: a text linted
 * once (OnceFindings).
 *
 * In steps (steps.ts): a step after every SEGMENTS_PER_STEP segments and
 * before every cross-cell check. Given up between two steps, it leaves
 * nothing half made: a segment's cached findings are whole.
 */
export function* lintWhole(ruleSet: RuleSet, doc: MessageDocument, config: MsglintConfig, keep: boolean, once?: OnceFindings): Steps<RawFindings> {
  const raw: RawFindings = { diagnostics: [], once };
  const { runCheck, segmentChecker, pushSegmentFindings } = reporter(doc, raw);
  const times = timingCollector();

  // Segment checks: segments outside, rules inside, so each segment's
  // signature is computed and compared once, and an unchanged segment costs
  // one comparison however many rules there are.
  const { segmentRules, severityOf, rulesKey, checks } = ruleSet.planOf(config);
  const spent = times && new Float64Array(segmentRules.length);
  if (segmentRules.length) {
    const env = fileEnv(doc, keep);
    let bodyAgentsBefore = 0;
    const bodyAgentsFrom = doc.agents.filter((a) => a.source === 'body').map((a) => a.from).sort((x, y) => x - y);
    let check: ((input: CellInput) => readonly SegmentFinding[]) | undefined;
    // With no id used twice (nearly every file) every cell is the first with its id: no set of the ids seen.
    const idsSeen = hasRepeatedIds(doc) ? new Set<string>() : undefined;
    let cellIndex = -1;
    const count = doc.segmentCount;
    for (let i = 0; i < count; i++) {
      if (i !== 0 && i % SEGMENTS_PER_STEP === 0) yield;
      const seg = doc.segment(i)!;
      const parse = seg.parse;
      if (!parse) continue;
      // The body agents declared before this segment: usable in it (agents are declared in order).
      const at = doc.offsetOf(seg);
      while (bodyAgentsBefore < bodyAgentsFrom.length && bodyAgentsFrom[bodyAgentsBefore]! <= at) bodyAgentsBefore++;
      let first = true;
      if (seg instanceof Cell) {
        cellIndex++;
        if (idsSeen && seg.id !== undefined) {
          first = !idsSeen.has(seg.id);
          idsSeen.add(seg.id);
        }
      }
      let findings: readonly SegmentFinding[];
      if (keep) {
        let entry = localCache.get(parse);
        // The kept input is offered only with the same rules: it comes back when nothing it holds changed.
        const kept = entry && entry.ruleSet === ruleSet && entry.rulesKey === rulesKey ? entry.input : undefined;
        const input = CellInput.of(doc, seg, cellIndex, env, bodyAgentsBefore, first, kept);
        if (input !== kept) {
          entry = { input, ruleSet, rulesKey, findings: (check ??= segmentChecker(segmentRules, spent))(input) };
          localCache.set(parse, entry);
        }
        findings = entry!.findings;
      } else {
        // Linted once: nothing to compare inputs with or to keep them for.
        findings = (check ??= segmentChecker(segmentRules, spent))(CellInput.of(doc, seg, cellIndex, env, bodyAgentsBefore, first));
      }
      if (findings.length) pushSegmentFindings(seg, findings, severityOf);
    }
  }

  if (spent) addSegmentTimes(times!, segmentRules, spent);
  for (let i = 0; i < checks.length; i++) {
    const { rule, severity } = checks[i]!;
    // Between rules: a step ends before each cross-cell check.
    yield;
    runCheck(rule, severity, config, times);
  }
  return raw;
}

function addSegmentTimes(times: LintTimes, segmentRules: SegmentRule[], spent: Float64Array): void {
  for (let r = 0; r < segmentRules.length; r++) addRuleTime(times, segmentRules[r]!.rule.meta.id, spent[r]!);
}

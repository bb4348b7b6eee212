// Disable comments (rules.md, last section):
//   <!-- msglint-disable RULE… -->, <!-- msglint-enable RULE… -->,
//   <!-- msglint-disable-next-line RULE… -->, <!-- msglint-disable-line RULE… -->,
//   <!-- msglint-disable-file RULE… -->

import type { Directive } from '../syntax/format/cell.js';
import { segmentsWithDirectives } from '../syntax/tree/segment-lists.js';
import type { MessageDocument } from '../syntax/document.js';
import type { Diagnostic } from './types.js';

interface PlacedDirective {
  /** Its place in file order among the directives. */
  index: number;
  kind: Directive['kind'];
  start: number;
  end: number;
  startLine: number;
  endLine: number;
  /** Known rule names (empty: all rules). */
  rules: { name: string; at: [number, number] }[];
  all: boolean;
  /** Rule names (or '*') that suppressed something. */
  used: Set<string>;
}

/** What unknown-rule or unused-disable reports. */
export interface DirectiveFinding {
  at: [number, number];
  message: string;
}

export function collectDirectives(doc: MessageDocument, isKnownRule: (id: string) => boolean): { directives: PlacedDirective[]; unknownRules: DirectiveFinding[] } {
  const directives: PlacedDirective[] = [];
  const unknownRules: DirectiveFinding[] = [];
  for (let i = 0, list = segmentsWithDirectives(doc); i < list.length; i++) {
    const seg = list[i]!;
    const p = seg.parse!;
    for (let j = 0, directivesList = p.directives; j < directivesList.length; j++) {
      const d = directivesList[j]!;
      const [start, end] = doc.abs(seg, d.span);
      const rules: PlacedDirective['rules'] = [];
      for (let k = 0, rulesList = d.rules; k < rulesList.length; k++) {
        const r = rulesList[k]!;
        const at = doc.abs(seg, r.span);
        if (isKnownRule(r.name)) rules.push({ name: r.name, at });
        else unknownRules.push({ at, message: `Unknown rule '${r.name}' in a msglint directive.` });
      }
      // A directive naming only unknown rules does nothing (rather than everything).
      if (d.rules.length > 0 && rules.length === 0) continue;
      directives.push({
        index: directives.length,
        kind: d.kind,
        start,
        end,
        startLine: doc.lines.lineOf(start),
        endLine: doc.lines.lineOf(end),
        rules,
        all: d.rules.length === 0,
        used: new Set(),
      });
    }
  }
  return { directives, unknownRules };
}

/**
 * The first directive (in file order) of some set that names a rule: one
 * lookup per diagnostic, where scanning every directive made a file of many
 * diagnostics and many directives quadratic.
 */
class FirstNaming {
  private all: PlacedDirective | undefined;
  private readonly byRule = new Map<string, PlacedDirective>();

  /** Call in file order: the first directive to name a rule keeps it. */
  add(d: PlacedDirective): void {
    if (d.all) this.all ??= d;
    else for (const r of d.rules) if (!this.byRule.has(r.name)) this.byRule.set(r.name, d);
  }

  /** Of the first directive naming `ruleId` and the first naming all rules, the earlier. */
  get(ruleId: string): PlacedDirective | undefined {
    return earlier(this.all, this.byRule.get(ruleId));
  }
}

function earlier(a: PlacedDirective | undefined, b: PlacedDirective | undefined): PlacedDirective | undefined {
  if (!a || !b) return a ?? b;
  return a.index <= b.index ? a : b;
}

/** A disable/enable directive's place among them (ranged directives, sorted by start). */
interface RangedEntry {
  start: number;
  seq: number;
  d: PlacedDirective;
}

/** The last entry starting at or before `offset` (entries sorted by start). */
function lastAtOrBefore(list: readonly RangedEntry[] | undefined, offset: number): RangedEntry | undefined {
  if (!list) return undefined;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.start <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? list[lo - 1] : undefined;
}

/**
 * Which directive suppresses a finding, asked finding by finding: a lint
 * of a file linted once asks as each finding is reported, so that a
 * suppressed one is never kept (engine/problem-cap.ts bounds the others).
 * Line directives first (the earliest directive in file order wins); what
 * they leave, the last disable/enable before the finding that names its
 * rule decides (a directive for all rules is in force for a rule until a
 * later one names that rule). Each question is a look-up and two binary
 * searches, so many findings and many directives cost n log m.
 */
export class Suppressions {
  private readonly wholeFile = new FirstNaming();
  private readonly byLine = new Map<number, FirstNaming>();
  private readonly rangedAll: RangedEntry[] = [];
  private readonly rangedByRule = new Map<string, RangedEntry[]>();

  constructor(readonly directives: readonly PlacedDirective[]) {
    const atLine = (line: number) => {
      let first = this.byLine.get(line);
      if (!first) this.byLine.set(line, (first = new FirstNaming()));
      return first;
    };
    for (let i = 0; i < directives.length; i++) {
      const d = directives[i]!;
      if (d.kind === 'disable-file') this.wholeFile.add(d);
      else if (d.kind === 'disable-line') for (let line = d.startLine; line <= d.endLine; line++) atLine(line).add(d);
      else if (d.kind === 'disable-next-line') atLine(d.endLine + 1).add(d);
    }
    const ranged = directives.filter((d) => d.kind === 'disable' || d.kind === 'enable').sort((a, b) => a.start - b.start);
    for (let seq = 0; seq < ranged.length; seq++) {
      const d = ranged[seq]!;
      const entry = { start: d.start, seq, d };
      if (d.all) this.rangedAll.push(entry);
      else {
        for (const r of d.rules) {
          let list = this.rangedByRule.get(r.name);
          if (!list) this.rangedByRule.set(r.name, (list = []));
          if (list[list.length - 1]?.d !== d) list.push(entry);
        }
      }
    }
  }

  /** Whether a finding of `ruleId` starting at `offset`, on `line`, is suppressed; the directive that does it is marked used. */
  suppresses(ruleId: string, offset: number, line: number): boolean {
    if (this.directives.length === 0) return false;
    let by = earlier(this.wholeFile.get(ruleId), this.byLine.get(line)?.get(ruleId));
    if (!by) {
      const own = lastAtOrBefore(this.rangedByRule.get(ruleId), offset);
      const all = lastAtOrBefore(this.rangedAll, offset);
      const state = own && (!all || own.seq > all.seq) ? own.d : all?.d;
      if (state?.kind === 'disable') by = state;
    }
    if (!by) return false;
    by.used.add(by.all ? '*' : ruleId);
    return true;
  }

  /** The directives that suppressed nothing (asked after every finding). */
  unused(): DirectiveFinding[] {
    const unused: DirectiveFinding[] = [];
    for (let i = 0, list = this.directives; i < list.length; i++) {
      const d = list[i]!;
      if (d.kind === 'enable') continue;
      if (d.all) {
        if (!d.used.has('*')) unused.push({ at: [d.start, d.end], message: `Unused msglint-${d.kind} directive (no problems were reported here).` });
      } else {
        for (let j = 0, rules = d.rules; j < rules.length; j++) {
          const r = rules[j]!;
          if (!d.used.has(r.name)) unused.push({ at: r.at, message: `Unused msglint-${d.kind} directive (no problems from '${r.name}' were reported here).` });
        }
      }
    }
    return unused;
  }
}

/** Drops suppressed diagnostics. */
export function applyDirectives(diagnostics: Diagnostic[], suppressions: Suppressions): Diagnostic[] {
  if (suppressions.directives.length === 0) return diagnostics;
  const kept: Diagnostic[] = [];
  for (let i = 0; i < diagnostics.length; i++) {
    const d = diagnostics[i]!;
    if (!suppressions.suppresses(d.ruleId, d.range.start.offset, d.range.start.line)) kept.push(d);
  }
  return kept;
}

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

/** Drops suppressed diagnostics; reports which directives did nothing. */
export function applyDirectives(diagnostics: Diagnostic[], directives: PlacedDirective[]): { kept: Diagnostic[]; unused: DirectiveFinding[] } {
  if (directives.length === 0) return { kept: diagnostics, unused: [] };
  const wholeFile = new FirstNaming();
  const byLine = new Map<number, FirstNaming>();
  const atLine = (line: number) => {
    let first = byLine.get(line);
    if (!first) byLine.set(line, (first = new FirstNaming()));
    return first;
  };
  for (let i = 0; i < directives.length; i++) {
    const d = directives[i]!;
    if (d.kind === 'disable-file') wholeFile.add(d);
    else if (d.kind === 'disable-line') for (let line = d.startLine; line <= d.endLine; line++) atLine(line).add(d);
    else if (d.kind === 'disable-next-line') atLine(d.endLine + 1).add(d);
  }
  // Line directives first (the earliest directive in file order wins, as
  // before); what they leave, the last disable/enable before the diagnostic
  // that names its rule decides.
  const suppressedBy: (PlacedDirective | undefined)[] = new Array(diagnostics.length);
  for (let i = 0; i < diagnostics.length; i++) {
    const diag = diagnostics[i]!;
    suppressedBy[i] = earlier(wholeFile.get(diag.ruleId), byLine.get(diag.range.start.line)?.get(diag.ruleId));
  }
  applyRanges(diagnostics, directives, suppressedBy);
  const kept: Diagnostic[] = [];
  for (let i = 0; i < diagnostics.length; i++) {
    const d = suppressedBy[i];
    if (d) d.used.add(d.all ? '*' : diagnostics[i]!.ruleId);
    else kept.push(diagnostics[i]!);
  }
  const unused: DirectiveFinding[] = [];
  for (let i = 0, list = directives; i < list.length; i++) {
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
  return { kept, unused };
}

/**
 * Sets, for each diagnostic no line directive suppressed, the disable that is
 * in force at its offset for its rule: one sweep over the diagnostics in
 * offset order and the disable/enable directives in file order. A directive
 * for all rules is in force for a rule until a later one names that rule.
 */
function applyRanges(diagnostics: readonly Diagnostic[], directives: readonly PlacedDirective[], suppressedBy: (PlacedDirective | undefined)[]): void {
  const ranged = directives.filter((d) => d.kind === 'disable' || d.kind === 'enable').sort((a, b) => a.start - b.start);
  if (ranged.length === 0) return;
  const byOffset: number[] = [];
  for (let i = 0; i < diagnostics.length; i++) if (!suppressedBy[i]) byOffset.push(i);
  byOffset.sort((a, b) => diagnostics[a]!.range.start.offset - diagnostics[b]!.range.start.offset);
  // The latest directive for all rules, and per rule the latest naming it, with when each came.
  let all: { d: PlacedDirective; seq: number } | undefined;
  const perRule = new Map<string, { d: PlacedDirective; seq: number }>();
  let next = 0;
  for (const i of byOffset) {
    const diag = diagnostics[i]!;
    for (; next < ranged.length && ranged[next]!.start <= diag.range.start.offset; next++) {
      const d = ranged[next]!;
      if (d.all) all = { d, seq: next };
      else for (const r of d.rules) perRule.set(r.name, { d, seq: next });
    }
    const own = perRule.get(diag.ruleId);
    const state = own && (!all || own.seq > all.seq) ? own.d : all?.d;
    if (state?.kind === 'disable') suppressedBy[i] = state;
  }
}

// Disable comments (rules.md, last section):
//   <!-- msglint-disable RULE… -->, <!-- msglint-enable RULE… -->,
//   <!-- msglint-disable-next-line RULE… -->, <!-- msglint-disable-line RULE… -->,
//   <!-- msglint-disable-file RULE… -->

import type { Directive } from '../syntax/format/cell.js';
import { segmentsWithDirectives } from '../syntax/tree/segment-lists.js';
import type { MessageDocument } from '../syntax/document.js';
import type { Diagnostic } from './types.js';

interface PlacedDirective {
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

export interface DirectiveOutcome {
  kept: Diagnostic[];
  unknownRules: { name: string; at: [number, number] }[];
  unused: { at: [number, number]; message: string }[];
}

export function collectDirectives(doc: MessageDocument, isKnownRule: (id: string) => boolean): {
  directives: PlacedDirective[];
  unknownRules: { name: string; at: [number, number] }[];
} {
  const directives: PlacedDirective[] = [];
  const unknownRules: { name: string; at: [number, number] }[] = [];
  for (let i = 0, list = segmentsWithDirectives(doc); i < list.length; i++) {
    const seg = list[i]!;
    const p = seg.parse!;
    for (let j = 0, directivesList = p.directives; j < directivesList.length; j++) {
      const d = directivesList[j]!;
      const [start, end] = seg.abs(d.span);
      const rules: PlacedDirective['rules'] = [];
      for (let k = 0, rulesList = d.rules; k < rulesList.length; k++) {
        const r = rulesList[k]!;
        const at = seg.abs(r.span);
        if (isKnownRule(r.name)) rules.push({ name: r.name, at });
        else unknownRules.push({ name: r.name, at });
      }
      // A directive naming only unknown rules does nothing (rather than everything).
      if (d.rules.length > 0 && rules.length === 0) continue;
      directives.push({
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

function names(d: PlacedDirective, ruleId: string): boolean {
  return d.all || d.rules.some((r) => r.name === ruleId);
}

function markUsed(d: PlacedDirective, ruleId: string): void {
  d.used.add(d.all ? '*' : ruleId);
}

/** Drops suppressed diagnostics; reports which directives did nothing. */
export function applyDirectives(diagnostics: Diagnostic[], directives: PlacedDirective[]): { kept: Diagnostic[]; unused: { at: [number, number]; message: string }[] } {
  if (directives.length === 0) return { kept: diagnostics, unused: [] };
  const ranged = directives.filter((d) => d.kind === 'disable' || d.kind === 'enable').sort((a, b) => a.start - b.start);
  const kept: Diagnostic[] = [];
  for (let i = 0, list = diagnostics; i < list.length; i++) {
    const diag = list[i]!;
    const line = diag.range.start.line;
    const offset = diag.range.start.offset;
    const id = diag.ruleId;
    let suppressedBy: PlacedDirective | undefined;
    for (let j = 0; j < directives.length; j++) {
      const d = directives[j]!;
      if (!names(d, id)) continue;
      if (d.kind === 'disable-file') suppressedBy ??= d;
      else if (d.kind === 'disable-line' && line >= d.startLine && line <= d.endLine) suppressedBy ??= d;
      else if (d.kind === 'disable-next-line' && line === d.endLine + 1) suppressedBy ??= d;
    }
    if (!suppressedBy) {
      // The last disable/enable before the diagnostic that names its rule decides.
      let state: PlacedDirective | undefined;
      for (let j = 0; j < ranged.length; j++) {
        const d = ranged[j]!;
        if (d.start > offset) break;
        if (names(d, id)) state = d.kind === 'disable' ? d : undefined;
      }
      suppressedBy = state;
    }
    if (suppressedBy) markUsed(suppressedBy, id);
    else kept.push(diag);
  }
  const unused: { at: [number, number]; message: string }[] = [];
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

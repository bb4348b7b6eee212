// Re-linting a version made from the previous one by an edit: the previous
// version's findings are kept per document, and those of the segments and
// (for checks of id roots) the roots the edit did not touch are moved by it.

import type { DocumentEdit, MessageDocument, ReplacedCells, Segment } from '../syntax/document.js';
import { Memo } from '../base/memo.js';
import { cellsWithMetadataElsewhere } from '../syntax/tree/segment-lists.js';
import { scopeOf, touchedRoots, type DoubtQuery, type Moved } from './keyed.js';
import { rerender } from './line-mentions.js';
import type { RuleSet } from './rule-set.js';
import type { KeptSegments, RawFindings } from './run.js';
import type { Diagnostic, MsglintConfig, Rule, TextEdit } from './types.js';

const rawFindings = new Memo<MessageDocument, RawFindings>();

/** Keeps a version's findings for the next version (see keyedChecks and keptSegments). */
export function keepFindings(doc: MessageDocument, raw: RawFindings): void {
  rawFindings.set(doc, raw);
}

/** Moves an offset of the previous version by the edit: NaN inside the edited range. */
function mover(edit: DocumentEdit): (p: number) => number {
  const delta = edit.newEnd - edit.oldEnd;
  return (p) => (p <= edit.start ? p : p >= edit.oldEnd ? p + delta : NaN);
}

/** A finding of the previous version moved by the edit, or undefined when a range of it lies in the edited range. */
function movedFinding(d: Diagnostic, move: (p: number) => number, doc: MessageDocument): Diagnostic | undefined {
  const start = move(d.range.start.offset);
  const end = move(d.range.end.offset);
  if (Number.isNaN(start) || Number.isNaN(end)) return undefined;
  const moveEdit = (e: TextEdit): TextEdit => ({ range: [move(e.range[0]), move(e.range[1])], text: e.text });
  const moved: Diagnostic = { ...d, range: doc.range(start, end) };
  if (d.fix) moved.fix = moveEdit(d.fix);
  if (d.suggestions) moved.suggestions = d.suggestions.map((s) => ({ desc: s.desc, fix: moveEdit(s.fix) }));
  if (d.related) moved.related = d.related.map((r) => ({ range: doc.range(move(r.range.start.offset), move(r.range.end.offset)), message: r.message }));
  const edits = [moved.fix, ...(moved.suggestions ?? []).map((s) => s.fix)];
  if (edits.some((e) => e && (Number.isNaN(e.range[0]) || Number.isNaN(e.range[1])))) return undefined;
  if (moved.related?.some((r) => Number.isNaN(r.range.start.offset) || Number.isNaN(r.range.end.offset))) return undefined;
  // A message that names a line names it where its place is now.
  return rerender(moved, d);
}

/** What an edit whose touched roots can be told lets the whole lint keep (see keyedChecks). */
export interface KeyedEdit {
  /** For a rule keyed by id root: its previous findings in other roots, moved, and the scope to run it over. */
  moved(rule: Rule): Moved | undefined;
}

/**
 * After an edit whose touched roots can be told (touchedRoots in keyed.ts):
 * for a rule whose findings are per id root (Rule.checkRoots), its
 * previous findings in other roots, moved, and the touched roots' cells and
 * metadata lines to run it over (undefined for a rule that must run whole).
 * Undefined when that does not apply.
 */
export function keyedChecks(ruleSet: RuleSet, doc: MessageDocument, config: MsglintConfig): KeyedEdit | undefined {
  const edit = doc.edit;
  const prev = edit?.previous;
  const before = prev && rawFindings.get(prev);
  if (!edit || !prev || !before || before.ruleSet !== ruleSet || before.config !== config) return undefined;
  const roots = touchedRoots(doc, prev, edit);
  if (!roots) return undefined;
  // The previous findings of each keyed rule, by index.
  const byRule = new Map<string, number[]>();
  for (let i = 0; i < before.diagnostics.length; i++) {
    if (before.roots[i] === undefined) continue;
    const id = before.origins[i] as string;
    const list = byRule.get(id);
    if (list) list.push(i);
    else byRule.set(id, [i]);
  }
  // The doubt questions of the rules move with the cells; the roots of
  // those that span a cell whose id became or stopped being doubtful run again.
  const asked = movedQuestions(doc, edit.replaced, before.doubt, roots);
  // Grows `roots` (scopeOf) before findings are sorted into kept and made again.
  const scope = scopeOf(doc, roots);
  if (!scope) return undefined;
  const move = mover(edit);
  return {
    moved(rule) {
      if (!rule.checkRoots) return undefined;
      const questions = asked.get(rule.meta.id);
      // Questions not known, or about a cell without an id, while the doubtful ids changed: the rule runs whole.
      if (questions === 'whole' || (!questions && edit.replaced.doubtChanged)) return undefined;
      const doubt = questions?.filter((q) => !roots.has(q.root!));
      const out: Moved = { kept: [], keptRoots: [], scope, doubt };
      for (const i of byRule.get(rule.meta.id) ?? []) {
        const root = before.roots[i]!;
        // A finding in nothing with an id: where it belongs is not known.
        if (root === null) return undefined;
        if (roots.has(root)) continue;
        const moved = movedFinding(before.diagnostics[i]!, move, doc);
        if (!moved) return undefined;
        out.kept.push(moved);
        out.keptRoots.push(root);
      }
      return out;
    },
  };
}

/**
 * After an edit that keeps the previous version's segments
 * (DocumentEdit.replaced) of a version linted with the same rules and
 * config: the segment findings of every segment whose checks see what they
 * saw, moved, and the others to check: the changed and refreshed segments,
 * and the cells whose metadata line lies in another segment (its distance
 * counts, and the edit may lie between them). A keystroke then costs
 * nothing per unchanged segment. Undefined when that does not apply.
 */
export function keptSegments(ruleSet: RuleSet, doc: MessageDocument, config: MsglintConfig): KeptSegments | undefined {
  const edit = doc.edit;
  if (!edit?.replaced) return undefined;
  const before = edit.previous && rawFindings.get(edit.previous);
  if (!before || before.ruleSet !== ruleSet || before.config !== config) return undefined;
  const again = new Set<Segment>(edit.replaced.refreshed);
  for (let i = edit.replaced.at; i < edit.replaced.at + edit.replaced.added; i++) again.add(doc.segment(i)!);
  for (const c of cellsWithMetadataElsewhere(doc)) again.add(c);
  // Where a segment of the previous version is in this one (-1: replaced).
  const r = edit.replaced!;
  const newIndex = (i: number): number => (i < r.at ? i : i >= r.at + r.removed ? i + r.added - r.removed : -1);
  // A kept segment moved as a whole: by the edit's length change when it comes after the replaced ones.
  const delta = edit.newEnd - edit.oldEnd;
  const after = r.at + r.added;
  const out: KeptSegments = { findings: [], origins: [], check: [] };
  for (let k = 0; k < before.diagnostics.length; k++) {
    const origin = before.origins[k]!;
    if (typeof origin !== 'number') continue;
    const i = newIndex(origin);
    if (i === -1 || again.has(doc.segment(i)!)) continue;
    const d = before.diagnostics[k]!;
    const by = i >= after ? delta : 0;
    out.findings.push(movedFinding(d, (p) => p + by, doc)!);
    out.origins.push(i);
  }
  for (const seg of again) {
    const i = doc.segmentIndexOf(seg);
    if (i !== -1) out.check.push(i);
  }
  out.check.sort((a, b) => a - b);
  return out;
}

/**
 * After an edit that keeps the cells: each keyed rule's doubtfulIdBetween
 * questions (RawFindings.doubt) with their cell indices moved. The root of
 * a question about a replaced cell, or (when the doubtful ids changed) one
 * spanning a cell whose id became or stopped being doubtful, is added to
 * `roots`: the rule asks it again. 'whole' for a rule with such a question
 * about a cell without an id.
 */
function movedQuestions(doc: MessageDocument, r: ReplacedCells, before: Map<string, DoubtQuery[]>, roots: Set<string>): Map<string, DoubtQuery[] | 'whole'> {
  const change = r.doubtChanged;
  const at = r.cell;
  const shift = r.added - r.removed;
  // -2 for a cell replaced (-1 is an open end, as Infinity is).
  const moved = (i: number): number => (i < at || i === Infinity ? i : i >= at + r.removed ? i + shift : -2);
  const flipped = change ? change.flipped.map((c) => doc.indexOf(c)) : [];
  const spansChange = (from: number, to: number): boolean => {
    if (!change) return false;
    if (change.replaced && from < at + r.added && to >= at) return true;
    for (const i of flipped) if (from < i && i < to) return true;
    return false;
  };
  const out = new Map<string, DoubtQuery[] | 'whole'>();
  for (const [rule, questions] of before) {
    const kept: DoubtQuery[] = [];
    for (const q of questions) {
      const from = moved(q.from);
      const to = moved(q.to);
      if (from !== -2 && to !== -2 && !spansChange(from, to)) {
        kept.push({ root: q.root, from, to });
        continue;
      }
      if (q.root === null) {
        out.set(rule, 'whole');
        break;
      }
      roots.add(q.root);
    }
    if (!out.has(rule)) out.set(rule, kept);
  }
  return out;
}

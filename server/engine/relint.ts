// Re-linting a version made from the previous one by an edit: the previous
// version's findings are kept per document, and those of the segments and
// (for checks of id roots) the roots the edit did not touch are moved by it.

import type { DocumentEdit, MessageDocument, ReplacedCells, Segment } from '../syntax/document.js';
import { Memo } from '../base/memo.js';
import { cellsWithMetadataElsewhere } from '../syntax/tree/segment-lists.js';
import { scopeOf, touchedRoots, type DoubtQuery, type KeyedFindings, type Moved } from './keyed.js';
import { rerender } from './line-mentions.js';
import type { RuleSet } from './rule-set.js';
import { INTERNAL_ERROR, lintWhole, type KeptSegments, type RawFindings } from './run.js';
import type { Steps } from './steps.js';
import type { Diagnostic, MsglintConfig, Rule, TextEdit } from './types.js';

const rawFindings = new Memo<MessageDocument, RawFindings>();

/** Keeps a version's findings for the next version (see lintAgain). */
export function keepFindings(doc: MessageDocument, raw: RawFindings): void {
  rawFindings.set(doc, raw);
}

/**
 * A whole lint that keeps what still holds of the previous version's
 * findings (keyedChecks, keptSegments), when this version was made from it
 * by an edit and it was linted with the same rules and config.
 */
export function lintAgain(ruleSet: RuleSet, doc: MessageDocument, config: MsglintConfig, keep: boolean): Steps<RawFindings> {
  const edit = doc.edit;
  const prev = edit?.previous;
  const before = prev && rawFindings.get(prev);
  if (!edit || !prev || !before || before.ruleSet !== ruleSet || before.config !== config) return lintWhole(ruleSet, doc, config, keep);
  return lintWhole(ruleSet, doc, config, keep, keyedChecks(doc, prev, edit, before), keptSegments(doc, edit, before));
}

/** Moves an offset of the previous version by the edit: NaN inside the edited range. */
function mover(edit: DocumentEdit): (p: number) => number {
  const delta = edit.newEnd - edit.oldEnd;
  return (p) => (p <= edit.start ? p : p >= edit.oldEnd ? p + delta : NaN);
}

/** A finding of the previous version moved, or undefined when a place of it lies in the edited range. */
function movedFinding(d: Diagnostic, move: (p: number) => number, doc: MessageDocument): Diagnostic | undefined {
  let lost = false;
  const at = (p: number): number => {
    const q = move(p);
    if (Number.isNaN(q)) lost = true;
    return q;
  };
  const moveEdit = (e: TextEdit): TextEdit => ({ range: [at(e.range[0]), at(e.range[1])], text: e.text });
  const start = at(d.range.start.offset);
  const end = at(d.range.end.offset);
  if (lost) return undefined;
  const moved: Diagnostic = { ...d, range: doc.range(start, end) };
  if (d.fix) moved.fix = moveEdit(d.fix);
  if (d.suggestions) moved.suggestions = d.suggestions.map((s) => ({ desc: s.desc, fix: moveEdit(s.fix) }));
  if (d.related) moved.related = d.related.map((r) => ({ range: doc.range(at(r.range.start.offset), at(r.range.end.offset)), message: r.message }));
  // A message that names a line names it where its place is now.
  return lost ? undefined : rerender(moved, d);
}

/**
 * After an edit whose touched roots can be told (touchedRoots in keyed.ts):
 * for a rule whose findings are per id root (Rule.checkRoots), its
 * previous findings in other roots, moved, and the touched roots' cells and
 * metadata lines to run it over (undefined for a rule that must run whole).
 * Undefined when that does not apply.
 */
function keyedChecks(doc: MessageDocument, prev: MessageDocument, edit: DocumentEdit, before: RawFindings): ((rule: Rule) => Moved | undefined) | undefined {
  const roots = touchedRoots(doc, prev, edit);
  if (!roots) return undefined;
  // The doubt questions of the rules move with the cells; the roots of
  // those that span a cell whose id became or stopped being doubtful run again.
  const asked = movedQuestions(doc, edit.replaced, before.keyed, roots);
  // Grows `roots` (scopeOf) before findings are sorted into kept and made again.
  const scope = scopeOf(doc, roots);
  if (!scope) return undefined;
  const move = mover(edit);
  return (rule) => {
    if (!rule.checkRoots) return undefined;
    const questions = asked.get(rule.meta.id);
    // Questions not known, or about a cell without an id, while the doubtful ids changed: the rule runs whole.
    if (questions === 'whole' || (!questions && edit.replaced.doubtChanged)) return undefined;
    const out: Moved = { found: [], roots: [], doubt: questions?.filter((q) => !roots.has(q.root!)), scope };
    // Linted with the same rules and config: the rule ran.
    const previous = before.keyed.get(rule.meta.id)!;
    for (let i = 0; i < previous.found.length; i++) {
      const root = previous.roots[i]!;
      // A finding in nothing with an id: where it belongs is not known.
      if (root === null) return undefined;
      if (roots.has(root)) continue;
      const moved = movedFinding(previous.found[i]!, move, doc);
      if (!moved) return undefined;
      out.found.push(moved);
      out.roots.push(root);
    }
    return out;
  };
}

/**
 * After an edit that keeps the previous version's segments
 * (DocumentEdit.replaced): the segment findings of every segment whose
 * checks see what they saw, moved, and the others to check: the changed and
 * refreshed segments, and the cells whose metadata line lies in another
 * segment (its distance counts, and the edit may lie between them). A
 * keystroke then costs nothing per unchanged segment.
 */
function keptSegments(doc: MessageDocument, edit: DocumentEdit, before: RawFindings): KeptSegments {
  const r = edit.replaced;
  const again = new Set<Segment>(r.refreshed);
  for (let i = r.at; i < r.at + r.added; i++) again.add(doc.segment(i)!);
  for (const c of cellsWithMetadataElsewhere(doc)) again.add(c);
  // Where a segment of the previous version is in this one (-1: replaced).
  const newIndex = (i: number): number => (i < r.at ? i : i >= r.at + r.removed ? i + r.added - r.removed : -1);
  // A kept segment moves as a whole: by the edit's length change when it comes after the replaced ones.
  const after = r.at + r.added;
  const delta = edit.newEnd - edit.oldEnd;
  const still = (p: number): number => p;
  const shifted = (p: number): number => p + delta;
  const out: KeptSegments = { findings: [], segments: [], check: [] };
  for (let k = 0; k < before.segments.length; k++) {
    const was = before.segments[k]!;
    // A rule's internal error (INTERNAL_ERROR) is made again by the check, if it still throws.
    if (was === INTERNAL_ERROR) continue;
    const i = newIndex(was);
    if (i === -1 || again.has(doc.segment(i)!)) continue;
    out.findings.push(movedFinding(before.diagnostics[k]!, i >= after ? shifted : still, doc)!);
    out.segments.push(i);
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
 * questions (KeyedFindings.doubt) with their cell indices moved. The root of
 * a question about a replaced cell, or (when the doubtful ids changed) one
 * spanning a cell whose id became or stopped being doubtful, is added to
 * `roots`: the rule asks it again. 'whole' for a rule with such a question
 * about a cell without an id.
 */
function movedQuestions(doc: MessageDocument, r: ReplacedCells, before: Map<string, KeyedFindings>, roots: Set<string>): Map<string, DoubtQuery[] | 'whole'> {
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
  for (const [rule, { doubt: questions }] of before) {
    if (!questions) continue;
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

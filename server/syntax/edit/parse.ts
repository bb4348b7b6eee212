// Parsing a message file: its segments found by one scan of the whole
// text, each segment parsed from its own text (or its parse reused from the
// previous version), then the file-wide facts.

import { mayCloseFrontmatter } from './closers.js';
import { parseFrontmatter, messageSectionName } from '../format/frontmatter.js';
import { resolve } from '../tree/facts.js';
import { isMdFile, MessageDocument, type ParseOptions, type TextEditHint } from '../tree/message-document.js';
import { commonLength, PreviousParses, reuseFrontmatter } from './reuse.js';
import { readHeadings, type PreviousReading } from '../format/headings.js';
import { scan } from '../format/scan.js';
import { parseAcross } from './splice.js';
import { Cell, Segment } from '../tree/segment.js';

/** Parses a message file. Never throws: any text gives a tree. */
export function parse(text: string, options: ParseOptions = {}): MessageDocument {
  const prev = options.previous;
  const hint = prev && options.edit && validHint(prev, options.edit, text) ? options.edit : undefined;
  // A frontmatter left open that the edit could close turns cells into YAML: the whole parse.
  if (prev && hint && !mayCloseFrontmatter(prev, hint)) {
    const spliced = parseAcross(text, options, prev, hint);
    if (spliced) return spliced;
  }
  const range = prev ? (hint ? { start: hint.start, oldEnd: hint.oldEnd, newEnd: hint.start + hint.text.length } : editRange(prev.text, text)) : undefined;
  const doc = new MessageDocument(text, options, prev && range ? prev.lines.edited(text, range.start, range.oldEnd, range.newEnd) : undefined);
  const parses = new PreviousParses(prev, text, options.once === true);
  // Where a segment starting at `at` was in the previous version (-1: in the edited range).
  const oldOffset = (at: number): number => (!range ? -1 : at <= range.start ? at : at >= range.newEnd ? at - (range.newEnd - range.oldEnd) : -1);
  let pos = 0;
  if (text.charCodeAt(0) === 0xfeff) {
    doc.table.add(new Segment('bom', '\ufeff', undefined), 0);
    pos = 1;
  }
  const fm = reuseFrontmatter(options.previous, text, pos) ?? parseFrontmatter(text, pos);
  if (fm) {
    doc.frontmatter = fm;
    doc.table.add(new Segment('frontmatter', (' ' + text.slice(fm.start, fm.end)).slice(1), undefined), fm.start);
    pos = fm.end;
  }

  let sectionStart = pos;
  let sectionEnd = text.length;
  const md = isMdFile(options.fileName);
  const sectionName = messageSectionName(fm, text);
  if (md && sectionName === null) doc.isMessageFile = false;

  // Every marker found again: beside the rest of a whole parse that costs little (docs/performance.md, "Versions that share").
  // With blocks for the headings of a file that declares a section: what remark reads is the text as the scanner sees it.
  const readsHeadings = md && sectionName !== null;
  const bodyScan = scan(text, pos, text.length, { markers: true, blocks: readsHeadings, leadingLine: false, stopAtMarker: undefined });
  let markers = bodyScan.markers.map((m) => m.line.start);
  if (md) {
    const name = sectionName ?? 'Discussion';
    // CommonMark's headings (remark), only for a file that declares a section; an edit's read again where it may change them.
    const previous: PreviousReading | undefined = prev?.section?.reading && range ? { reading: prev.section.reading, ...range } : undefined;
    const reading = readsHeadings ? readHeadings(text, pos, text.length, { found: bodyScan, previous }) : undefined;
    const headings = reading?.headings ?? [];
    const heading = headings.find((h) => h.text === name);
    doc.section = { name, heading, start: text.length, end: text.length, headings, reading };
    if (heading) {
      sectionStart = heading.line.end;
      const after = headings.find((h) => h.index > heading.index && h.level <= heading.level);
      if (after) {
        sectionEnd = after.line.start;
        doc.section.notLastHeading = after;
      }
      doc.section.start = sectionStart;
      doc.section.end = sectionEnd;
    } else {
      sectionStart = text.length;
    }
    for (const m of bodyScan.markers) {
      if (m.line.start < sectionStart || m.line.start >= sectionEnd) {
        doc.outsideMarkers.push({ start: m.line.start, end: m.line.contentEnd, before: m.line.start < sectionStart });
      }
    }
    markers = markers.filter((m) => m >= sectionStart && m < sectionEnd);
    if (sectionStart > pos) {
      const outside = parses.parse(text.slice(pos, sectionStart), false, oldOffset(pos));
      doc.table.add(new Segment('outside', outside.text, outside), pos);
    }
    pos = sectionStart;
  }

  const firstCell = markers.length ? markers[0]! : sectionEnd;
  if (firstCell > pos) {
    const prologue = parses.parse(text.slice(pos, firstCell), false, oldOffset(pos));
    doc.table.add(new Segment('prologue', prologue.text, prologue), pos);
  }
  for (let i = 0; i < markers.length; i++) {
    const start = markers[i]!;
    const end = i + 1 < markers.length ? markers[i + 1]! : sectionEnd;
    const parsed = parses.parse(text.slice(start, end), true, oldOffset(start));
    doc.table.add(new Cell(i, parsed.text, parsed), start);
  }
  if (sectionEnd < text.length) {
    const after = parses.parse(text.slice(sectionEnd), false, oldOffset(sectionEnd));
    doc.table.add(new Segment('outside', after.text, after), sectionEnd);
  }

  resolve(doc);
  return doc;
}

function validHint(prev: MessageDocument, e: TextEditHint, text: string): boolean {
  return (
    Number.isInteger(e.start) &&
    Number.isInteger(e.oldEnd) &&
    e.start >= 0 &&
    e.start <= e.oldEnd &&
    e.oldEnd <= prev.text.length &&
    text.length === prev.text.length - (e.oldEnd - e.start) + e.text.length
  );
}

/** The smallest range where two texts differ. */
function editRange(old: string, text: string): { start: number; oldEnd: number; newEnd: number } {
  const prefix = commonLength(old, text, false);
  const suffix = commonLength(old, text, true, Math.min(old.length, text.length) - prefix);
  return { start: prefix, oldEnd: old.length - suffix, newEnd: text.length - suffix };
}

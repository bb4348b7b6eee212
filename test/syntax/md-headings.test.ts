// Issue 34, defect 1: the headings of an ordinary .md file are CommonMark's
// (spec section 1, amended): setext headings count, a `# Title` inside an
// HTML block does not, and a heading inside a block quote or a list item
// belongs to that container. Found with remark (server/syntax/format/headings.ts).

import { describe, expect, it } from 'vitest';
import { parse } from '../../server/syntax/edit/parse.js';
import { documentHeadings, remarkInput } from '../../server/syntax/format/headings.js';
import { check, file } from '../helpers.js';

const FM = ['---', 'message_section: true', '---', ''];
const CELL = ['# %% [^1]', '[^1]: [markdown]', '', 'hello'];
const lintMd = (text: string) => check(text, { fileName: 'notes.md' }).map((f) => `${f.line} ${f.ruleId}`);

describe('the message section of an ordinary .md file', () => {
  it('starts at a setext heading, whose cells are read', () => {
    const text = file(...FM, 'Intro.', '', 'Discussion', '==========', '', ...CELL);
    expect(lintMd(text)).toEqual([]);
    const doc = parse(text, { fileName: 'notes.md' });
    expect(doc.section?.heading?.text).toBe('Discussion');
    expect(doc.cells.map((c) => c.id)).toEqual(['1']);
  });

  it('is ended by a setext heading of the same level, reported by message-section-not-last', () => {
    const text = file(...FM, '## Discussion', '', ...CELL, '', 'Notes', '-----', '', 'More.');
    expect(lintMd(text)).toEqual(['12 message-section-not-last']);
    const found = check(text, { fileName: 'notes.md' })[0]!;
    expect(found.text).toBe('Notes\n-----');
  });

  it('is not ended by a `# Title` line inside an HTML block', () => {
    const text = file(...FM, '# Discussion', '', '<div>', '# Title', '</div>', '', ...CELL);
    expect(lintMd(text)).toEqual([]);
    expect(parse(text, { fileName: 'notes.md' }).cells.length).toBe(1);
  });

  it('is neither started nor ended by a heading inside a block quote or a list item', () => {
    const quoted = file(...FM, '> # Discussion', '', ...CELL);
    expect(lintMd(quoted)).toEqual(['2 message-section-missing']);
    const inside = file(...FM, '# Discussion', '', '> # Quoted', '', '- # Listed', '', ...CELL);
    expect(lintMd(inside)).toEqual([]);
  });

  it('keeps cell markers out of the headings (a `# %%` line is an ATX heading to CommonMark)', () => {
    const text = file(...FM, '# Discussion', '', ...CELL);
    const body = text.indexOf('# Discussion');
    expect(documentHeadings(text, body, text.length).map((h) => h.text)).toEqual(['Discussion']);
  });

  it('lets a fence that never closes hide nothing (spec section 2 over CommonMark)', () => {
    const text = file(...FM, '```', 'code', '', '# Discussion', '', ...CELL, '', '# After');
    const doc = parse(text, { fileName: 'notes.md' });
    expect(doc.section?.heading?.text).toBe('Discussion');
    expect(doc.section?.notLastHeading?.text).toBe('After');
    // The opener is blanked for remark, at the same length: every offset is kept.
    const input = remarkInput(text, 0, text.length);
    expect(input.length).toBe(text.length);
    const upTo = text.indexOf('# Discussion');
    expect(input.slice(0, upTo)).toBe(text.slice(0, upTo).replace('```\n', '   \n'));
  });

  it('reads a run of `]` in linear time: remark reads no link label, only a definition’s', () => {
    // A definition is no setext heading's text; a paragraph is.
    expect(documentHeadings('[x]: /url\n===\n', 0, 14)).toEqual([]);
    expect(documentHeadings('[x] /url\n===\n', 0, 13).map((h) => h.text)).toEqual(['[x] /url']);
    const run = `# ${']'.repeat(100_000)}\n`;
    expect(documentHeadings(run, 0, run.length)[0]!.text.length).toBe(100_000);
    const paragraph = `${'a ] '.repeat(50_000)}\n===\n`;
    expect(documentHeadings(paragraph, 0, paragraph.length).map((h) => h.level)).toEqual([1]);
  });

  it('lets an HTML comment that never closes hide nothing', () => {
    const text = file(...FM, '<!-- note', '', '# Discussion', '', ...CELL);
    expect(parse(text, { fileName: 'notes.md' }).cells.length).toBe(1);
  });

  it('gives a heading at the same place in a file with CRLF line breaks', () => {
    const text = file(...FM, 'Discussion', '===', '', ...CELL).replace(/\n/g, '\r\n');
    const doc = parse(text, { fileName: 'notes.md' });
    expect(doc.section?.heading?.line.start).toBe(text.indexOf('Discussion'));
    expect(doc.cells.length).toBe(1);
  });
});

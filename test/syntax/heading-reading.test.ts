// Issue 46, point 1: the headings of an ordinary .md file are read by
// micromark with its block constructs only, in pieces, and read again only
// where an edit may change them (server/syntax/format/headings.ts). Checked
// here against remark's whole reading (remark-parse and remark-gfm, inline
// constructs and all, as msglint read them before) on generated documents,
// in pieces of every size, and against a whole reading after random edits.

import fc from 'fast-check';
import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { generateMessageFile } from '../../bench/generate.mjs';
import { parse } from '../../server/syntax/edit/parse.js';
import { remarkRead } from '../../server/syntax/format/heading-blocks.js';
import { MAX_DEPTH } from '../../server/syntax/format/heading-budget.js';
import { readHeadings, remarkInput, type Heading, type HeadingReading } from '../../server/syntax/format/headings.js';
import { isMarkerCandidate } from '../../server/syntax/format/scan-lines.js';
import { plainHeadings } from '../../server/syntax/format/heading-plain.js';
import { scan } from '../../server/syntax/format/scan.js';
import type { MessageDocument } from '../../server/syntax/tree/message-document.js';
import { runs } from '../reliability/gen.js';

const remark = unified().use(remarkParse).use(remarkGfm).freeze();

/** remark's whole reading, as headings.ts made it before issue 46: the mdast tree's top-level headings. */
function remarkHeadings(text: string): Omit<Heading, 'index'>[] {
  const root: Root = remark.parse(remarkInput(text, 0, text.length));
  const out: Omit<Heading, 'index'>[] = [];
  for (const node of root.children) {
    if (node.type !== 'heading') continue;
    const start = text.lastIndexOf('\n', node.position!.start.offset! - 1) + 1;
    const contentEnd = node.position!.end.offset!;
    const nl = text.indexOf('\n', contentEnd);
    const lineContentEnd = nl === -1 ? text.length : nl > contentEnd && text[nl - 1] === '\r' ? nl - 1 : nl;
    if (isMarkerCandidate(text, start, lineContentEnd)) continue;
    const first = node.children[0]?.position?.start.offset;
    const last = node.children[node.children.length - 1]?.position?.end.offset;
    const body = first === undefined || last === undefined ? '' : text.slice(first, last).trim();
    out.push({ line: { start, contentEnd, end: nl === -1 ? text.length : nl + 1 }, level: node.depth, text: body });
  }
  return out;
}

const plain = (r: HeadingReading) => r.headings.map(({ line, level, text }) => ({ line, level, text }));

const LINES = [
  'text', 'Discussion', 'more words here', '# Discussion', '## Sub *em* and `code`', '# a #', '#', '# #', '### c ###b', '#5 not',
  '# `co` [link](u) <b>x</b> &amp; \\* *a **b', '  # two', '    # four', 'Foo  ', 'Foo\\', '===', '---', '  ---  ', '-', '- ', '=',
  '- - -', '***', '_ _ _', '- item', '  - nested', '    - deeper', '1. one', '2) two', '+ plus', '- # item heading', '10. ten',
  '> quote', '> # quoted', '>', '> - in quote', '>> two', '', '', '', '   ', '```', '~~~', '```js', '````', '    indented', '\tcode',
  '<div>', '</div>', '<!-- c', '-->', '<!-- x -->', '<pre>', '</pre>', '<script>', '</script>', '<?php', '?>', '<!X', '<![CDATA[', ']]>',
  '[a]: /url', '[a]: /url "t', 'title"', '[^1]: note', '    more', '[^a]: [^b]: x', '| a | b |', '|---|---|', 'a | b', '-|-', '| - |',
  '*emph', '**strong', '`code', '[label', ']: x', '# %% [^1]', '## %%% Reply', 'lazy line', `${'>'.repeat(MAX_DEPTH + 3)} deep`,
  '# a  ', '#\ta', '# a #  ', '  ```', ' ~~~ x', '<tool>', '<content><![CDATA[', ']]></content>', '</tool>', 'a <!-- x', 'x --> y',
  '<![CDATA[x', '<span>', '<DIV>', '<Script>', '<textarea x>', '``` a`b', '``', '<!---->', '<!-- a --> b', '[^2]: [tool] name="x"', '<!-->x->', '<!--->',
];

const doc = fc
  .tuple(fc.array(fc.constantFrom(...LINES), { maxLength: 40 }), fc.constantFrom('\n', '\n', '\r\n'), fc.boolean())
  .map(([lines, br, end]) => lines.join(br) + (end ? br : ''));

describe('the headings remark finds in pieces, inline constructs left out', () => {
  it('are remark’s whole reading’s, in pieces of every size, wherever no budget is spent', () => {
    let compared = 0;
    fc.assert(
      fc.property(doc, fc.integer({ min: 1, max: 64 }), (md, chunk) => {
        const reading = readHeadings(md, 0, md.length, { chunk });
        if (reading.linesFrom !== -1) return;
        compared++;
        expect(plain(reading), JSON.stringify(md)).toEqual(remarkHeadings(md));
        expect(readHeadings(md, 0, md.length)).toEqual(reading);
      }),
      { numRuns: runs(1000) },
    );
    expect(compared).toBeGreaterThan(runs(1000) / 2);
  });
});

describe('the headings of a text the line rules read alike (heading-plain.ts)', () => {
  it('are remark’s reading, with the same places to start afresh', () => {
    let plainly = 0;
    fc.assert(
      fc.property(doc, (md) => {
        const byRemark = readHeadings(md, 0, md.length, { remark: true });
        if (byRemark.linesFrom !== -1) return;
        const found = scan(md, 0, md.length, { markers: true, blocks: true, leadingLine: false, stopAtMarker: undefined });
        if (plainHeadings(remarkInput(md, 0, md.length, found), 0, found)) plainly++;
        expect(readHeadings(md, 0, md.length), JSON.stringify(md)).toEqual(byRemark);
      }),
      { numRuns: runs(3000) },
    );
    // The line rules read a good share of the generated texts (a quarter in one run), or this test would test little.
    expect(plainly).toBeGreaterThan(runs(3000) / 20);
  });
});

const INSERTS = ['x', ' ', '\n', '\n\n', '#', '# ', '```\n', '~~~', '\nB', '\n\nB', 'a\n===\n', '> ', '- ', '<!--', '-->', '|', '`', '<div>', '\n---\n', 'Discussion', ''];

const edited = fc.tuple(doc, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 6 }), fc.constantFrom(...INSERTS)), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 48 }));

describe('an edit’s headings, read again only where the edit may change them', () => {
  it('are those of a whole reading of the edited text', () => {
    fc.assert(
      fc.property(edited, ([md, edits, chunk]) => {
        let text = md;
        let reading = readHeadings(text, 0, text.length, { chunk });
        for (const [at, remove, insert] of edits) {
          const start = text.length ? at % (text.length + 1) : 0;
          const oldEnd = Math.min(text.length, start + remove);
          text = text.slice(0, start) + insert + text.slice(oldEnd);
          const previous = { reading, start, oldEnd, newEnd: start + insert.length };
          reading = readHeadings(text, 0, text.length, { chunk, previous });
          const whole = readHeadings(text, 0, text.length, { chunk });
          expect(reading, JSON.stringify({ text, start, oldEnd, insert })).toEqual(whole);
        }
      }),
      { numRuns: runs(1000) },
    );
  });
});

describe('the editor’s path: a version reads again only what its edit may change', () => {
  // A conversation of the benchmark's as the message section of an ordinary .md file (about 50 kB).
  const base = generateMessageFile({ turns: 40 })
    .replace('---\n', '---\nmessage_section: true\n')
    .replace('\n---\n', '\n---\n\n# Notes\n\nText.\n\n# Discussion\n\n');
  const options = { fileName: 'notes.md' };
  const headings = (doc: MessageDocument) => doc.section!.headings.map(({ line, level, text }) => ({ line, level, text }));

  /** The text with `insert` typed at `at` one character at a time, each version parsed with the one before; what remark read. */
  function typeInto(doc: MessageDocument, at: number, insert: string): { doc: MessageDocument; runs: number; characters: number } {
    let runs = 0;
    let characters = 0;
    for (const ch of insert) {
      const text = doc.text.slice(0, at) + ch + doc.text.slice(at);
      const before = { ...remarkRead };
      doc = parse(text, { ...options, previous: doc, edit: { start: at, oldEnd: at, text: ch } });
      runs += remarkRead.runs - before.runs;
      characters += remarkRead.characters - before.characters;
      expect(headings(doc)).toEqual(headings(parse(text, options)));
      at++;
    }
    return { doc, runs, characters };
  }

  it('a word typed in a cell’s paragraph: remark reads nothing', () => {
    const before = remarkRead.characters;
    const doc = parse(base, options);
    // The line rules read this text alike (heading-plain.ts): a whole parse has remark read none of it.
    expect(remarkRead.characters - before).toBe(0);
    const at = base.indexOf('\nBefore total the larger value') + 8;
    const typed = typeInto(doc, at, 'words ');
    expect(typed.runs).toBe(0);
    expect(typed.doc.section!.heading?.text).toBe('Discussion');
  });

  it('a heading typed at a line’s start: remark reads the paragraphs around it', () => {
    const doc = parse(base, options);
    const at = base.indexOf('\nBefore total the larger value') + 1;
    const typed = typeInto(doc, at, '# ');
    expect(typed.runs).toBeGreaterThan(0);
    // A few paragraphs at each keystroke, not the 50 kB file.
    expect(typed.characters).toBeLessThan(base.length / 10);
    expect(typed.doc.section!.notLastHeading?.text).toBe('Before total the larger value person and parser number records larger larger agents and configuration a. Is we cache total input the total file. Loader so number was.');
  });
});

describe('remark reads each character a bounded number of times', () => {
  /** A whole reading of `text`: its headings' texts, and the characters remark read per character of it. */
  const readWhole = (text: string) => {
    const before = remarkRead.characters;
    const headings = readHeadings(text, 0, text.length).headings.map((h) => h.text);
    return { headings, perCharacter: (remarkRead.characters - before) / text.length };
  };
  // Places that look like new starts (a letter after a blank line) but where fenced code or an HTML block runs on: a piece that ends at one is read again, longer.
  const shapes: [string, (n: number) => string][] = [
    ['fenced code holding the whole text', (n) => `# A\n\n\`\`\`\n${'\nline\n'.repeat(n)}\`\`\`\n\n# B\n`],
    ['an HTML comment holding the whole text', (n) => `# A\n\n<!--\n${'\nline\n'.repeat(n)}-->\n\n# B\n`],
    ['many fences, each holding a few such places', (n) => `# A\n\n${'```\n\nx\n\ny\n```\n\nText.\n\n'.repeat(n)}# B\n`],
    ['a text of plain paragraphs', (n) => `# A\n\n${'Text of a paragraph.\n\n'.repeat(n)}# B\n`],
  ];
  it.each(shapes)('%s', (_, make) => {
    for (const n of [2_000, 8_000]) {
      const { headings, perCharacter } = readWhole(make(n));
      expect(headings).toEqual(['A', 'B']);
      expect(perCharacter).toBeLessThan(3);
    }
  });
});

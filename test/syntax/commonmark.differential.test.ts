// The line scanner against remark-parse (CommonMark), issue 34: over the
// CommonMark spec's own examples (the commonmark-spec package) and over
// generated documents, the lines remark puts inside fenced code or an HTML
// comment are the lines the scanner treats as opaque, its code spans are
// remark's, a `<tool>` in a code span is never a call, and the headings of
// an ordinary .md file are remark's. Where the two must differ, the case is
// named here with the reason.

import spec from 'commonmark-spec';
import fc from 'fast-check';
import type { Nodes, Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { documentHeadings } from '../../server/syntax/format/headings.js';
import { codeSpans } from '../../server/syntax/format/scan-lookahead.js';
import { scan } from '../../server/syntax/format/scan.js';
import { runs } from '../reliability/gen.js';

const commonmark = unified().use(remarkParse).freeze();
const examples = (section: string) => spec.tests.filter((t) => t.section === section).map((t) => ({ n: t.number, md: t.markdown.replace(/→/g, '\t') }));

function walk(node: Nodes, visit: (n: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const child of node.children) walk(child as Nodes, visit);
}

/** Lines (0-based) remark puts in fenced code (opener to closer) or strictly inside a multi-line HTML comment. */
function remarkOpaque(md: string, tree: Root): number[] {
  const lines = new Set<number>();
  const lastLine = md.endsWith('\n') ? md.split('\n').length - 2 : md.split('\n').length - 1;
  walk(tree, (n) => {
    const p = n.position!;
    const lineStart = md.lastIndexOf('\n', p.start.offset! - 1) + 1;
    if (n.type === 'code' && /^ {0,3}(`{3}|~{3})/.test(md.slice(lineStart))) {
      for (let l = p.start.line - 1; l <= Math.min(p.end.line - 1, lastLine); l++) lines.add(l);
    }
    if (n.type === 'html' && n.value.startsWith('<!--')) for (let l = p.start.line; l < p.end.line - 1; l++) lines.add(l);
  });
  return [...lines].sort((a, b) => a - b);
}

function scannerOpaque(md: string): number[] {
  return scan(md, 0, md.length, { markers: true, blocks: true, leadingLine: false, stopAtMarker: undefined }).opaqueLines;
}

function scannerSpans(md: string): number[] {
  const spans: number[] = [];
  for (let ls = 0; ls < md.length; ) {
    spans.push(...codeSpans(md, ls));
    const nl = md.indexOf('\n', ls);
    ls = nl === -1 ? md.length : nl + 1;
  }
  return spans;
}

function remarkSpans(tree: Root): number[] {
  const spans: number[] = [];
  walk(tree, (n) => {
    if (n.type === 'inlineCode') spans.push(n.position!.start.offset!, n.position!.end.offset!);
  });
  return spans;
}

describe('the CommonMark spec examples', () => {
  it('has the sections compared here', () => {
    expect(examples('Fenced code blocks').length).toBe(29);
    expect(examples('HTML blocks').length).toBe(44);
    expect(examples('Code spans').length).toBe(22);
    expect(examples('ATX headings').length + examples('Setext headings').length).toBe(45);
  });

  // An HTML block is not opaque in the format (spec section 2 names fenced
  // code, comments and CDATA only: a marker in a <div> is a marker), so a
  // fence inside one is still a fence to the scanner.
  const FENCE_IN_HTML_BLOCK = [161];

  it('fenced code and HTML blocks: the lines remark hides are the lines the scanner hides', () => {
    const differ: number[] = [];
    for (const { n, md } of [...examples('Fenced code blocks'), ...examples('HTML blocks')]) {
      if (JSON.stringify(remarkOpaque(md, commonmark.parse(md))) !== JSON.stringify(scannerOpaque(md))) differ.push(n);
    }
    expect(differ).toEqual(FENCE_IN_HTML_BLOCK);
  });

  // The scanner reads code spans within a line (spec section 8: a `<tool>`
  // on a line outside code spans); CommonMark lets one run on over the lines
  // of its paragraph: 335, 336, 337. And a raw HTML tag or an autolink that
  // starts first takes the backticks in it (344, 346): the scanner, which
  // reads no inline HTML, sees a code span there.
  const MULTI_LINE = [335, 336, 337];
  const TAG_FIRST = [344, 346];

  it('code spans: the scanner finds the spans remark finds', () => {
    const differ: number[] = [];
    for (const { n, md } of examples('Code spans')) {
      if (scannerSpans(md).join() !== remarkSpans(commonmark.parse(md)).join()) differ.push(n);
    }
    expect(differ).toEqual([...MULTI_LINE, ...TAG_FIRST]);
  });

  it('headings: an ordinary .md file has remark’s top-level headings', () => {
    const sections = ['ATX headings', 'Setext headings', 'HTML blocks', 'Fenced code blocks', 'Block quotes', 'List items', 'Indented code blocks'];
    let compared = 0;
    for (const section of sections) {
      for (const { n, md } of examples(section)) {
        const tree = commonmark.parse(md);
        const want = tree.children.filter((c) => c.type === 'heading').map((h) => `${h.depth}@${h.position!.start.line}`);
        const got = documentHeadings(md, 0, md.length).map((h) => `${h.level}@${md.slice(0, h.line.start).split('\n').length}`);
        expect(got, `example ${n}`).toEqual(want);
        compared++;
      }
    }
    expect(compared).toBe(203);
  });
});

describe('generated documents', () => {
  const fenceChar = fc.constantFrom('`', '~');
  const line = fc.oneof(
    fc.constantFrom('text', 'more text', '', '# Heading', '<!-- note -->', '<!--', '-->', '    indented', '- item'),
    fc.tuple(fenceChar, fc.integer({ min: 3, max: 5 }), fc.constantFrom('', 'js', ' ')).map(([c, n, info]) => c.repeat(n) + info),
    // A `<tool>` in a code span of 1 to 3 backticks, with text around it, as
    // a paragraph of its own: the scanner reads spans within a line (below).
    fc.tuple(fc.integer({ min: 1, max: 3 }), fc.constantFrom('', 'a ', '` ', '\\`')).map(([n, before]) => `\n${before}${'`'.repeat(n)}<tool><tool_name>x</tool_name></tool>${'`'.repeat(n)} after\n`),
  );
  const doc = fc.array(line, { maxLength: 24 }).map((lines) => lines.join('\n') + '\n');

  it('the scanner hides the lines remark puts in fenced code or an HTML comment, where every fence closes', () => {
    fc.assert(
      fc.property(doc, (md) => {
        const tree = commonmark.parse(md);
        const s = scan(md, 0, md.length, { markers: true, blocks: true, leadingLine: false, stopAtMarker: undefined });
        // Where they must differ: an unclosed fence (or comment) runs to the
        // end of the document in CommonMark, while in the format it hides
        // nothing (spec section 2); and remark's containers (a list item, an
        // indented line) are no concern of the line scanner. Compared where
        // neither occurs.
        if (s.fences.some((f) => !f.close) || s.comments.some((c) => !c.closed)) return;
        if (/^(- |    )/m.test(md)) return;
        expect(scannerOpaque(md)).toEqual(remarkOpaque(md, tree));
      }),
      { numRuns: runs(300) },
    );
  });

  it('a `<tool>` in a code span is never a call', () => {
    fc.assert(
      fc.property(doc, (md) => {
        const spans = remarkSpans(commonmark.parse(md));
        const s = scan(md, 0, md.length, { markers: true, blocks: true, leadingLine: false, stopAtMarker: undefined });
        for (const tool of s.tools) {
          for (let i = 0; i < spans.length; i += 2) expect(tool.start >= spans[i]! && tool.start < spans[i + 1]!, md).toBe(false);
        }
      }),
      { numRuns: runs(300) },
    );
  });
});

// remark's reading of a Markdown text's blocks, for its headings: micromark
// (remark's tokenizer) with CommonMark's constructs, GFM's footnote
// definitions and tables, and no inline construct. Which line is a heading
// depends on the blocks alone (CommonMark reads blocks first, then the inline
// content of each), and a heading's text is its source text (headings.ts),
// so emphasis, links and code spans are not read: micromark's reading of
// them is superlinear (a run of emphasis delimiters: about cubic). Nor is
// the mdast tree built: the events say where the headings are. GFM tables
// are read without the extension's resolver, which only makes the tokens of
// cells (in time quadratic in the document's cells): that a table's lines are
// a table, not a paragraph that a `---` line would make a heading, is the
// tokenizer's.

import { loadMicromark } from '../../base/lazy.js';

type Micromark = ReturnType<typeof loadMicromark>;
type Events = ReturnType<Micromark['postprocess']>;
type Extension = NonNullable<NonNullable<Parameters<Micromark['parse']>[0]>['extensions']>[number];
type Constructs = NonNullable<NonNullable<Extension['flow']>[number]>;
type Construct = Exclude<Constructs, readonly unknown[]>;

let reader: ((input: string) => Events) | undefined;

/**
 * What remark has read in this process: its runs and their characters. The
 * tests read it: an edit that cannot change the headings is read by no run,
 * one that may by a run over the paragraphs around it.
 */
export const remarkRead = { runs: 0, characters: 0 };

function blockEvents(input: string): Events {
  remarkRead.runs++;
  remarkRead.characters += input.length;
  if (!reader) {
    const m = loadMicromark();
    const table = m.gfmTable().flow!.null as Constructs;
    const tokenize = (Array.isArray(table) ? (table[0] as Construct) : (table as Construct)).tokenize;
    // The extension's tokenizer, without its resolver.
    const rows: Extension = { flow: { null: [{ name: 'gfmTableRows', tokenize }] } };
    const extensions: Extension[] = [m.gfmFootnote(), rows];
    reader = (text) => {
      const parser = m.parse({ extensions });
      // No inline construct: a line of a paragraph's or a heading's text is
      // one data token, and so is a string (an info string, a definition's
      // parts). (A character where a construct may start, even a disabled
      // one, would end a data token, and micromark joins such tokens again
      // in time quadratic in their number.) Line endings stay what they are.
      const inline = parser.constructs.text;
      parser.constructs.text = { [-5]: inline[-5]!, [-4]: inline[-4]!, [-3]: inline[-3]! };
      parser.constructs.string = {};
      return m.postprocess(parser.document().write(m.preprocess()(text, undefined, true)));
    };
  }
  return reader(input);
}

/** A heading outside any container, by offsets in the text read. */
export interface BlockHeading {
  start: number;
  end: number;
  level: number;
  /** The heading's content (without `#`s or underline); -1 when it has none. */
  textStart: number;
  textEnd: number;
}

export interface BlockReading {
  headings: BlockHeading[];
  /** Where a block starts outside any container or other block, ascending. */
  topStarts: number[];
}

/** The top-level headings of `input` and where its top-level blocks start. */
export function readBlocks(input: string): BlockReading {
  const headings: BlockHeading[] = [];
  const topStarts: number[] = [];
  let depth = 0;
  let heading: BlockHeading | undefined;
  for (const [kind, token] of blockEvents(input)) {
    if (kind === 'exit') {
      depth--;
      if (depth === 0 && heading) {
        heading.end = token.end.offset;
        headings.push(heading);
        heading = undefined;
      }
      continue;
    }
    const type = token.type;
    if (depth === 0) {
      topStarts.push(token.start.offset);
      if (type === 'atxHeading' || type === 'setextHeading') heading = { start: token.start.offset, end: -1, level: 0, textStart: -1, textEnd: -1 };
    } else if (heading) {
      if (type === 'atxHeadingSequence') heading.level ||= token.end.offset - token.start.offset;
      else if (type === 'setextHeadingLineSequence') heading.level = input.charCodeAt(token.start.offset) === 61 ? 1 : 2;
      else if (type === 'atxHeadingText' || type === 'setextHeadingText') {
        heading.textStart = token.start.offset;
        heading.textEnd = token.end.offset;
      }
    }
    depth++;
  }
  return { headings, topStarts };
}

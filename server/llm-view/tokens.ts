// Token estimation for the LLM view (spec section 9), used by the
// `context-window` rule. This is the ONE place that turns text into a token
// count; everything else calls `estimateTokens`.
//
// Method
// ------
// A real BPE tokenizer was measured first: `gpt-tokenizer` 4.0 (o200k_base,
// the GPT-4o encoding) needs ~280 ms to load its ranks and ~1,000 ms to count
// the 6.86 MB benchmark file (`genmsg.mjs 5000`); `js-tiktoken` 1.0.21 needs
// ~1,700 ms to load and ~4,100 ms to encode it (Node 20, 2 cores). Linting a
// file of that size has to take well under a second in total, so msglint does
// not tokenize: it estimates, in one linear pass over the characters, with a
// model of how o200k/cl100k-style BPE pre-tokenization splits text:
//
// - a run of ASCII letters is split into pieces at lower-to-upper case changes
//   (`getThreadHistory` -> get|Thread|History); a piece of up to 15 letters
//   counts 1 token, a longer piece 1 + (length - 15) / 6;
// - a run of digits counts 1 token per 3 digits (BPE splits numbers that way);
// - a run of ASCII punctuation counts 0.3 per character, at least 1;
// - one space before a word is part of that word (free); a run of several
//   spaces or tabs counts 0.25; a run of line breaks (with the indentation
//   after it) counts 0.7;
// - CJK characters (Han, kana, Hangul, full-width forms) count 0.75 each;
//   other characters of the Basic Multilingual Plane (accented letters,
//   Cyrillic, symbols) 1 each, and a character outside it (emoji) 1.5.
//
// The weights were fitted (least squares on the log ratio) against
// gpt-tokenizer's o200k_base counts on 13 calibration texts (spec and seed
// documents in English and Chinese, TypeScript source, a JSON file of tool
// calls, generated and hand-written message files) and checked on 8 other
// texts (READMEs, package.json, more source, a Chinese message file).
// Measured error against o200k_base: RMS 3.1 % on the calibration set and
// 3.3 % on the check set; the worst single text is +7.1 % (a README heavy in
// Markdown tables), the 6.86 MB benchmark file +1.9 % (2,077,615 estimated,
// 2,038,814 real). On what `context-window` actually counts, the LLM view of
// generated message files (cell bodies, no markers or metadata), it is +4.4 %
// (1,265,677 estimated, 1,212,344 real, for the benchmark file). Plain
// `characters / 4` is off by -48 % on Chinese text and by -19 % to +22 % on
// the others. The estimate runs at 40-60 ms for 6.86 MB, 20x faster than the
// tokenizer. It never counts more than one token per UTF-16 code unit
// (`context-window` relies on that to skip short files).
// test/llm-view/tokens.test.ts compares it with gpt-tokenizer (a dev
// dependency, used only there) on a sample of such texts: within 10 % of each,
// and within 6 % on the LLM view of a generated file.
//
// Against cl100k_base (GPT-4, GPT-3.5) the same estimate is within 5.3 % RMS
// over all 21 texts; Chinese is where the encodings differ most (cl100k counts
// 18 % more than o200k on seed 003, and the estimate is -15 % against it).
// Other providers' models use other tokenizers again, so an exact count in one
// encoding would not be exact for every agent anyway.
//
// How a cell counts (`cellTokens`): its contribution to the view (view.ts:
// body or summary) plus MESSAGE_OVERHEAD_TOKENS; a binary code output counts
// BINARY_OUTPUT_TOKENS instead of its base64 text. `sent` is the body as the
// export sends it by default: a reply's thinking paragraph left out
// (--thinking omit; providers leave an earlier turn's reasoning out).

import type { CellParse } from '../syntax/format/cell.js';
import type { Cell, CellKind, MessageDocument } from '../syntax/document.js';
import { bodyPieces, isBinaryOutput, summaryText, thinkingPieces, viewRole } from './view.js';
import { Memo } from '../base/memo.js';

/** Tokens a chat API adds around each message (role, separators), as OpenAI documents ~3-4. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * Tokens counted for a code output whose `mime_type` is not textual (an image
 * and so on): providers charge images by size, not by the base64 length
 * (about 85-1,600 tokens for one image); this is a middle figure.
 */
export const BINARY_OUTPUT_TOKENS = 1000;

const WORD_FREE = 15;
const WORD_DIV = 6;
const DIGITS_PER_TOKEN = 3;
const PUNCT = 0.3;
const SPACE_RUN = 0.25;
const NEWLINE_RUN = 0.7;
const CJK = 0.75;
const OTHER = 1;
const ASTRAL = 1.5;

const LETTER = 1;
const DIGIT = 2;
const SPACE = 3;
const NEWLINE = 4;
const PUNCTUATION = 5;
const CJK_CHAR = 6;
const HIGH_SURROGATE = 7;
const LOW_SURROGATE = 8;
const OTHER_CHAR = 9;

function classify(c: number): number {
  if (c < 128) {
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) return LETTER;
    if (c >= 48 && c <= 57) return DIGIT;
    if (c === 32 || c === 9) return SPACE;
    if (c === 10 || c === 13) return NEWLINE;
    return PUNCTUATION;
  }
  if (
    (c >= 0x3000 && c <= 0x30ff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xac00 && c <= 0xd7af) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xff00 && c <= 0xffef)
  ) {
    return CJK_CHAR;
  }
  if (c >= 0xd800 && c <= 0xdbff) return HIGH_SURROGATE;
  if (c >= 0xdc00 && c <= 0xdfff) return LOW_SURROGATE;
  return OTHER_CHAR;
}

/**
 * The class of every UTF-16 code unit, looked up rather than computed
 * (64 KiB). Made by the first count, not at load: most lints count nothing
 * (no window is in reach), and filling it costs a cold start milliseconds.
 */
let CLASS: Uint8Array = new Uint8Array(0);

/** The code units outside ASCII whose class is not OTHER_CHAR, as [first, last, class] (classify's ranges). */
const RANGES: readonly (readonly [number, number, number])[] = [
  [0x3000, 0x30ff, CJK_CHAR],
  [0x3400, 0x4dbf, CJK_CHAR],
  [0x4e00, 0x9fff, CJK_CHAR],
  [0xac00, 0xd7af, CJK_CHAR],
  [0xd800, 0xdbff, HIGH_SURROGATE],
  [0xdc00, 0xdfff, LOW_SURROGATE],
  [0xf900, 0xfaff, CJK_CHAR],
  [0xff00, 0xffef, CJK_CHAR],
];

function classes(): Uint8Array {
  if (CLASS.length === 0) {
    // Filled by ranges: classify() on each of the 65,536 code units takes the first count ~10 ms more.
    const table = new Uint8Array(65536).fill(OTHER_CHAR);
    for (let c = 0; c < 128; c++) table[c] = classify(c);
    for (const [first, last, k] of RANGES) table.fill(k, first, last + 1);
    CLASS = table;
  }
  return CLASS;
}

function classOf(c: number): number {
  return CLASS[c]!;
}

function wordPiece(length: number): number {
  return length <= WORD_FREE ? 1 : 1 + (length - WORD_FREE) / WORD_DIV;
}

/**
 * The estimated number of tokens of `text[start, end)` (the whole text by
 * default) for an o200k/cl100k-style tokenizer. Linear, allocation-free.
 */
export function estimateTokens(text: string, start = 0, end = text.length): number {
  return Math.round(tokenWeight(text, start, end));
}

/** The tokens a line break between two pieces of text counts. */
export const LINE_BREAK_TOKENS = NEWLINE_RUN;

/**
 * The unrounded estimate of `text[start, end)`: add the weights of the pieces
 * of a longer text and round once, so many short pieces add up correctly.
 */
export function tokenWeight(text: string, start = 0, end = text.length): number {
  classes();
  let t = 0;
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    const k = classOf(c);
    if (k === LETTER) {
      let piece = 1;
      let prevLower = c >= 97;
      let j = i + 1;
      while (j < end) {
        const d = text.charCodeAt(j);
        const lower = d >= 97 && d <= 122;
        const upper = d >= 65 && d <= 90;
        if (!lower && !upper) break;
        if (upper && prevLower) {
          t += wordPiece(piece);
          piece = 0;
        }
        piece++;
        prevLower = lower;
        j++;
      }
      t += wordPiece(piece);
      i = j;
    } else if (k === DIGIT) {
      let j = i + 1;
      while (j < end && classOf(text.charCodeAt(j)) === DIGIT) j++;
      t += Math.ceil((j - i) / DIGITS_PER_TOKEN);
      i = j;
    } else if (k === SPACE) {
      let j = i + 1;
      while (j < end && classOf(text.charCodeAt(j)) === SPACE) j++;
      if (j - i > 1) t += SPACE_RUN;
      else if (j >= end || classOf(text.charCodeAt(j)) === NEWLINE) t += 1;
      i = j;
    } else if (k === NEWLINE) {
      let j = i + 1;
      while (j < end) {
        const q = classOf(text.charCodeAt(j));
        if (q !== NEWLINE && q !== SPACE) break;
        j++;
      }
      t += NEWLINE_RUN;
      i = j;
    } else if (k === PUNCTUATION) {
      let j = i + 1;
      while (j < end && classOf(text.charCodeAt(j)) === PUNCTUATION) j++;
      t += Math.max(1, (j - i) * PUNCT);
      i = j;
    } else if (k === CJK_CHAR) {
      t += CJK;
      i++;
    } else if (k === HIGH_SURROGATE) {
      t += ASTRAL;
      i += 2;
    } else if (k === LOW_SURROGATE) {
      // A lone low surrogate: counted with the character before it.
      i++;
    } else {
      t += OTHER;
      i++;
    }
  }
  return t;
}

/** What of a cell is counted: its body, its summary, or its body as sent (a reply's thinking left out). */
export type Counted = 'body' | 'summary' | 'sent';

interface CachedTokens {
  contributes: Counted;
  cellKind: CellKind;
  metadata: unknown;
  tokens: number;
}

// Per cell parse: an edit elsewhere in a long file does not re-count this cell.
const tokenCache = new Memo<CellParse, CachedTokens[]>('parse');

/** Estimated tokens a cell takes in the LLM view when it contributes its body, its summary or its body as sent. */
export function cellTokens(doc: MessageDocument, cell: Cell, contributes: Counted): number {
  const parse = cell.parse!;
  const metadata = doc.metadataOf(cell)?.node;
  let list = tokenCache.get(parse);
  const hit = list?.find((c) => c.contributes === contributes && c.cellKind === doc.kindOf(cell) && c.metadata === metadata);
  if (hit) return hit.tokens;
  const tokens = countCellTokens(doc, cell, contributes);
  if (!list) tokenCache.set(parse, (list = []));
  list.push({ contributes, cellKind: doc.kindOf(cell), metadata, tokens });
  if (list.length > 4) list.shift();
  return tokens;
}

/** The tokens of a reply's thinking paragraph, which its `sent` count leaves out (0 for a cell without one). */
export function thinkingTokens(doc: MessageDocument, cell: Cell): number {
  if (viewRole(doc, cell) !== 'assistant') return 0;
  return cellTokens(doc, cell, 'body') - cellTokens(doc, cell, 'sent');
}

function countCellTokens(doc: MessageDocument, cell: Cell, contributes: Counted): number {
  if (contributes === 'summary') return MESSAGE_OVERHEAD_TOKENS + estimateTokens(summaryText(doc, cell));
  if (doc.kindOf(cell) === 'code-output' && isBinaryOutput(doc, cell)) return MESSAGE_OVERHEAD_TOKENS + BINARY_OUTPUT_TOKENS;
  const pieces = bodyPieces(doc, cell);
  const from = contributes === 'sent' ? thinkingPieces(doc, cell, pieces) : 0;
  const n = pieces.length - from;
  let w = n > 1 ? (n - 1) * NEWLINE_RUN : 0;
  for (let i = from; i < pieces.length; i++) {
    const p = pieces[i]!;
    w += p.text !== undefined ? tokenWeight(p.text) : tokenWeight(cell.text, p.start, p.end);
  }
  return MESSAGE_OVERHEAD_TOKENS + Math.round(w);
}

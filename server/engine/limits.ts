// Files msglint does not lint, told before they are parsed: one finding at
// the start of the file instead (rules file-too-large and file-encoding).
// Memory grows with the text and with its cells, and a file past these
// limits would take more than a Node process has by default (about 4 GiB
// of heap on a 64-bit machine with 16 GiB or more, less on smaller ones):
// reported, it never aborts the process.

import { countMarkerLines } from '../syntax/format/scan-lines.js';
import { encodingName, type EncodingProblem } from '../base/decode.js';

/**
 * The longest text linted, in UTF-16 code units (64 MiB of ASCII). A
 * realistic conversation takes about 8 times its size to lint
 * (docs/performance.md); the largest ones seen are a few megabytes.
 */
export const MAX_LINT_LENGTH = 64 * 1024 * 1024;

/**
 * The most cells linted: each costs some hundreds of bytes of tree however
 * short it is, so a file of millions of `# %%` lines is too large long
 * before its length is. A realistic conversation of MAX_LINT_LENGTH has
 * about 270,000 (cells of 250 characters on average).
 */
export const MAX_LINT_CELLS = 1_000_000;

export interface FileVerdict {
  ruleId: 'file-too-large' | 'file-encoding';
  message: string;
}

const mib = (n: number): string => `${(n / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;

/** Why a text is not linted at all, or undefined when it is linted. `encoding`: what decoding its bytes found. */
export function fileVerdict(text: string, encoding: EncodingProblem | undefined): FileVerdict | undefined {
  if (encoding?.kind === 'binary') {
    return { ruleId: 'file-encoding', message: 'This file is binary (it has a NUL byte in its first 8 KB), not UTF-8 text: it is not linted.' };
  }
  if (text.length > MAX_LINT_LENGTH) {
    return { ruleId: 'file-too-large', message: `This file is too large to lint: ${mib(text.length)} of text, where msglint lints up to ${mib(MAX_LINT_LENGTH)}.` };
  }
  // A marker line takes at least four characters (`#%%` and its line break): a text
  // shorter than that many times the limit cannot pass it, and is not read line by line.
  if ((text.length + 1) / 4 <= MAX_LINT_CELLS) return undefined;
  const cells = countMarkerLines(text, MAX_LINT_CELLS);
  if (cells > MAX_LINT_CELLS) {
    return {
      ruleId: 'file-too-large',
      message: `This file is too large to lint: more than ${MAX_LINT_CELLS.toLocaleString('en-US')} cell markers, where msglint lints up to ${MAX_LINT_CELLS.toLocaleString('en-US')}.`,
    };
  }
  return undefined;
}

/** The finding of bytes that are not valid in their encoding, at the first bad one: the file is linted as decoded. */
export function invalidEncodingMessage(problem: EncodingProblem & { kind: 'invalid' }): string {
  return `This file is not valid ${encodingName(problem.encoding)} from this byte on: bytes that do not decode are read as U+FFFD, so the file is linted as read, and fixes are not applied.`;
}

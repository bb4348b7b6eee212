// Import: a conversation in a provider's shape (or msglint's context-json,
// dexto's or Forge's) as a message file (spec section 9, "Import"). One
// reader per source turns the JSON into provider-neutral turns (model.ts),
// write.ts writes them with the writer; what the file cannot hold is in
// `dropped`, one line per kind, never left out silently.

import { allRules, lintAndFix } from '../linter.js';
import { inexactNumbersIn, nestingOf, sentAs, valueChildren } from '../tool-calls/index.js';
import type { WriterOptions } from '../writer/index.js';
import { readAnthropic } from './anthropic.js';
import { readContextJson } from './context-json.js';
import { detectFormat } from './detect.js';
import { readDexto } from './dexto.js';
import { readForge } from './forge.js';
import { Dropped, ImportError, IMPORT_FORMATS, type Conversation, type ImportFormat } from './model.js';
import { readOpenAI } from './openai.js';
import { readVercel } from './vercel.js';
import { writeConversation } from './write.js';

export { ImportError, IMPORT_FORMATS, detectFormat };
export type { ImportFormat };

/**
 * The deepest nesting of arrays and objects read: far more than a
 * conversation and the deepest arguments a message file holds (256) need,
 * and far less than would overflow the stack of what reads the values
 * (JSON.stringify of a tool's output, say).
 */
export const MAX_INPUT_LEVEL = 1000;

export interface ImportOptions {
  /** The source format; recognised from the input when absent. */
  from?: ImportFormat;
  /** Replace credentials with `[REDACTED:KIND]` (the `secret` rule's fix with `{ "redact": true }`). */
  redact?: boolean;
  /** Random numbers for the nonces of tool call ids (tests); default: cryptographic. */
  random?: WriterOptions['random'];
}

export interface ImportResult {
  /** The message file. */
  text: string;
  format: ImportFormat;
  /** What the file could not hold, one line per kind: `dropped 2 image parts (messages 3, 5)`. */
  dropped: string[];
}

/** A conversation (JSON text) as a message file. Throws ImportError (one line) on bad JSON or an unknown shape. */
export function importConversation(input: string, options: ImportOptions = {}): ImportResult {
  let data: unknown;
  try {
    data = JSON.parse(input.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ImportError(`not JSON: ${(error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ')}`);
  }
  if (nestingOf(data, valueChildren, MAX_INPUT_LEVEL).containers > MAX_INPUT_LEVEL) {
    throw new ImportError(`nested more than ${MAX_INPUT_LEVEL} levels deep: msglint imports JSON nested at most that deep`);
  }
  const detected = detectFormat(data);
  const format = options.from ?? detected;
  if (format === undefined) throw new ImportError('not a conversation of a known shape (give --from FORMAT)');
  if (!IMPORT_FORMATS.includes(format)) throw new ImportError(`unknown format '${String(format)}' (expected one of: ${IMPORT_FORMATS.join(', ')})`);
  const dropped = new Dropped();
  numbersChanged(input, dropped);
  const conv = read(format, data, dropped);
  if (detected !== undefined && detected !== format) refuseWrongFormat(format, detected, data, dropped);
  let text = writeConversation(conv, dropped, options.random ? { random: options.random } : {});
  if (options.redact) text = redact(text);
  return { text, format, dropped: dropped.lines() };
}

/** JSON.parse has read numbers that a double does not hold as the nearest one it holds: said, with the first few. */
function numbersChanged(input: string, dropped: Dropped): void {
  const inexact = inexactNumbersIn(input);
  if (!inexact.length) return;
  const shown = inexact.slice(0, 3).map((n) => `${n.length > 40 ? `${n.slice(0, 40)}…` : n} as ${sentAs(n)}`);
  const more = inexact.length > 3 ? `, and ${inexact.length - 3} more` : '';
  dropped.add(`changed: numbers that a double does not hold, read as the nearest it holds (${shown.join(', ')}${more})`, -1, inexact.length);
}

/**
 * A format given with --from that loses what the format the input looks like
 * keeps (an Anthropic conversation read as OpenAI's loses its `system`,
 * `tool_use` and `tool_result`): refused, naming the other format, rather
 * than written without them.
 */
function refuseWrongFormat(format: ImportFormat, detected: ImportFormat, data: unknown, dropped: Dropped): void {
  const other = new Dropped();
  try {
    read(detected, data, other);
  } catch {
    return; // The other reader cannot read it either: the given format stands.
  }
  if (other.total() >= dropped.total()) return;
  const lost = dropped.lines().flatMap((l) => (l.startsWith('dropped ') ? [l.slice('dropped '.length)] : []));
  const shown = lost.slice(0, 3).join(', ') + (lost.length > 3 ? `, and ${lost.length - 3} more kinds` : '');
  throw new ImportError(`read as ${format}, the input would lose ${shown}; it looks like ${detected}, which keeps ${other.total() ? 'more of ' : ''}it: give --from ${detected}, or leave --from out`);
}

function read(format: ImportFormat, data: unknown, dropped: Dropped): Conversation {
  switch (format) {
    case 'openai':
      return readOpenAI(data, dropped);
    case 'vercel-legacy':
      return readOpenAI(data, dropped, true);
    case 'anthropic':
      return readAnthropic(data, dropped);
    case 'vercel':
      return readVercel(data, dropped);
    case 'context-json':
      return readContextJson(data, dropped);
    case 'dexto':
      return readDexto(data, dropped);
    case 'forge':
      return readForge(data, dropped);
  }
}

/** The file with each credential replaced by `[REDACTED:KIND]`: the `secret` rule's fix, only that rule on. */
function redact(text: string): string {
  const rules: Record<string, 'off' | ['error', { redact: true }]> = Object.fromEntries(allRules.map((r) => [r.meta.id, 'off' as const]));
  rules.secret = ['error', { redact: true }];
  return lintAndFix(text, { fileName: 'import.msg.md', config: { rules } }).text;
}

// The conversation every source is read into before it is written: the
// provider-neutral turns of a chat, and the list of what was left out.

import { argumentsForm, type JsonValue } from '../tool-calls/index.js';

export type ImportFormat = 'openai' | 'anthropic' | 'vercel' | 'vercel-legacy' | 'context-json' | 'dexto' | 'forge';
export const IMPORT_FORMATS: readonly ImportFormat[] = ['openai', 'anthropic', 'vercel', 'vercel-legacy', 'context-json', 'dexto', 'forge'];

/** Bad JSON or a shape no source has: one line for the user. */
export class ImportError extends Error {
  override readonly name = 'ImportError';
}

export interface ImportedCall {
  /** The provider's id of the call, kept as `call_id`. */
  id?: string;
  name: string;
  server?: string;
  /** The arguments: a JSON object, or the text as the model wrote it (`<arguments type="json">`). */
  args: { object: Record<string, JsonValue> } | { raw: string } | { none: true };
  /** The model's text that goes with this call (context-json's `reasoning` of a call). */
  text?: string;
  time?: string;
}

export type Turn =
  | { role: 'user'; text: string; time?: string; attributes?: Record<string, string>; at: number }
  | { role: 'system'; text: string; time?: string; attributes?: Record<string, string>; at: number }
  | { role: 'assistant'; text: string; thinking?: string; calls: ImportedCall[]; time?: string; reasoning?: boolean; attributes?: Record<string, string>; at: number }
  | {
      role: 'tool';
      callId?: string;
      /** The tool's name as the result gives it; kept (`name`) when `keepName` or when it is not its call's. */
      name?: string;
      /** The source's result has a `name` of its own, which it may leave out (OpenAI's tool message). */
      keepName?: boolean;
      text: string;
      /** The AI SDK's JSON output: `text` is its JSON text, written with `output=json`. */
      json?: boolean;
      isError?: boolean;
      time?: string;
      at: number;
    };

export interface Conversation {
  /** A system prompt given apart from the messages (Anthropic's and the AI SDK's `system`). */
  system?: string;
  /** The model named by the input, if any: the agent is named after it. */
  model?: string;
  turns: Turn[];
}

/** Lines that say something other than what was left out: written as they are, without `dropped N`. */
const SAID = /^(?:changed|kept|incomplete):/;

/** What an import leaves out, counted per kind with the (1-based) messages concerned. */
export class Dropped {
  private readonly kinds = new Map<string, { count: number; where: Set<number> }>();

  /** `what`: a plural noun phrase (`image parts`); `at`: the 0-based index of the input message. */
  add(what: string, at: number, count = 1): void {
    let k = this.kinds.get(what);
    if (!k) this.kinds.set(what, (k = { count: 0, where: new Set() }));
    k.count += count;
    if (at >= 0) k.where.add(at + 1);
  }

  /** How many things of every kind were left out (lines that say something else not counted). */
  total(): number {
    let n = 0;
    for (const [what, { count }] of this.kinds) if (!SAID.test(what)) n += count;
    return n;
  }

  /** One line per kind: `dropped 2 image parts (messages 3, 5)`. */
  lines(): string[] {
    const out: string[] = [];
    for (const [what, { count, where }] of this.kinds) {
      const list = [...where].sort((a, b) => a - b);
      const places = list.length ? ` (message${list.length === 1 ? '' : 's'} ${list.join(', ')})` : '';
      out.push(`${SAID.test(what) ? '' : `dropped ${count} `}${count === 1 ? singular(what) : what}${places}`);
    }
    return out;
  }
}

/** The phrase for one: the last word before ` of `, ` (` or `` ` `` loses its plural ending (`1 image part`, `1 provider-only field \`name\``). */
function singular(what: string): string {
  if (SAID.test(what)) return what;
  const m = / of | \(| `/.exec(what);
  const head = m ? what.slice(0, m.index) : what;
  const one = head.endsWith('ies') ? head.slice(0, -3) + 'y' : head.endsWith('s') ? head.slice(0, -1) : head;
  return one + what.slice(head.length);
}

/**
 * The messages of a request body (`{model?, system?, messages}`, the keys in
 * `keys` read) or of a bare array; the model's name goes to `conv`, any other
 * request field is said. Throws ImportError when there is no array.
 */
export function requestMessages(data: unknown, conv: Conversation, dropped: Dropped, keys: readonly string[] = ['messages', 'model']): unknown[] {
  let messages: unknown = data;
  if (isObject(data)) {
    messages = data.messages;
    if (typeof data.model === 'string') conv.model = data.model;
    const other = Object.keys(data).filter((k) => !keys.includes(k));
    if (other.length) dropped.add(`request fields (${other.join(', ')})`, -1, other.length);
  }
  if (!Array.isArray(messages)) throw new ImportError('expected an array of messages or an object with "messages"');
  return messages;
}

/**
 * Server-side (provider-executed) tool calls and results, which a message
 * file does not hold: each is left out, and a call whose result the input
 * does not have makes the conversation a fragment, which is said too.
 */
export class ServerTools {
  private readonly calls = new Map<string, number>();
  private readonly results = new Set<string>();

  constructor(private readonly dropped: Dropped) {}

  call(id: unknown, at: number, what = 'server-side tool calls'): void {
    this.dropped.add(what, at);
    if (typeof id === 'string' && !this.calls.has(id)) this.calls.set(id, at);
  }

  result(id: unknown, at: number, what = 'server-side tool results'): void {
    this.dropped.add(what, at);
    if (typeof id === 'string') this.results.add(id);
  }

  /** Says each call left without its result. */
  end(): void {
    for (const [id, at] of this.calls) if (!this.results.has(id)) this.dropped.add('incomplete: server-side tool calls without their result in the input, left out', at);
  }
}

/** Whether a value is a plain JSON object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whitespace outside strings removed: JSON text as JSON.stringify writes it, if it is compact otherwise. */
function minify(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (!/\s/.test(c)) out += c;
  }
  return out;
}

/** What argsFromText says of arguments whose text has spacing of its own. */
export const RESPACED = 'changed: the spacing of JSON arguments text (its values are kept, as typed arguments, which export sends as compact JSON)';

/**
 * The arguments of a call given as JSON text (OpenAI's `function.arguments`):
 * typed values when the text is a JSON object that JSON.stringify gives back
 * up to spacing and argument elements can hold, else the text itself (`""`,
 * `arg1, arg2`, an array, numbers JSON cannot keep, `\u` escapes, an object
 * nested deeper than elements may be), so that nothing changes.
 */
export function argsFromText(text: string, at: number, dropped: Dropped): ImportedCall['args'] {
  try {
    const v: unknown = JSON.parse(text);
    if (isObject(v) && argumentsForm(v as Record<string, JsonValue>) === 'elements' && minify(text) === JSON.stringify(v)) {
      // The values are kept, types included; the text's own spacing is not (typed elements hold values, not text).
      if (text !== JSON.stringify(v)) dropped.add(RESPACED, at);
      return { object: v as Record<string, JsonValue> };
    }
  } catch {
    // Not JSON: kept as written.
  }
  return { raw: text };
}

/** The arguments of a call given as a value (Anthropic's and the AI SDK's `input`). */
export function argsFromValue(value: unknown): ImportedCall['args'] {
  if (value === undefined) return { none: true };
  if (isObject(value)) return { object: value as Record<string, JsonValue> };
  return { raw: JSON.stringify(value) };
}

/** An ISO 8601 time from a string or epoch milliseconds; undefined when it is neither. */
export function timeOf(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString().replace('.000Z', 'Z');
  }
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})$/.test(v.trim())) return v.trim();
  return undefined;
}

/** The text of `content` given as a string or a list of parts; each other part is dropped under its kind. */
export function textOf(content: unknown, at: number, dropped: Dropped, join = '\n\n', textTypes = ['text']): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) {
    dropped.add('message contents of an unknown shape', at);
    return '';
  }
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') texts.push(part);
    else if (isObject(part) && textTypes.includes(String(part.type)) && typeof part.text === 'string') {
      texts.push(part.text);
      extraKeys(part, ['type', 'text'], at, dropped);
    } else dropped.add(`${partKind(part)} parts`, at);
  }
  return texts.join(join);
}

/** The kind of a content part, for `dropped` (`image`, `file`, …). */
export function partKind(part: unknown): string {
  if (!isObject(part)) return 'unknown';
  const t = String(part.type ?? 'unknown');
  if (/image/.test(t)) return 'image';
  if (/file|document|audio/.test(t)) return 'file';
  return t;
}

/** Keys of a part or message beyond those a message file holds: one `dropped` line per key. */
export function extraKeys(obj: Record<string, unknown>, known: readonly string[], at: number, dropped: Dropped): void {
  for (const k of Object.keys(obj)) if (!known.includes(k) && obj[k] !== undefined) dropped.add(`provider-only fields \`${k}\``, at);
}

// Appending cells to a message file's text (spec sections 3-8): ids, the
// metadata line, the marker and a body that reads back as written.
//
// Decisions where the spec is silent:
// - Message cells and agent replies get the next free number (one more than
//   the largest number used as an id in the file); tool calls
//   `PARENT.NONCE` with a fresh nonce of six characters of `a-z 0-9`, at
//   least one a letter (an all-digit nonce is a `tool-call-nonce` warning),
//   unique in the file: drawn at random, or, given `nonceFrom`, derived
//   from that text (a hash, the next one on a clash), so that writing the
//   same calls again gives the same file; results `CALL.N`, code outputs
//   `CODE.N`, N counting on from those already in the file.
// - Markers: `# %%` for message cells, `# %%%` for replies and code
//   outputs, `## %%%` for tool calls and their results (indented one level,
//   as spec section 10's example has them). No title unless one is given.
// - Every cell ends with a line break and is separated from the next by a
//   blank line.
// - What cannot be written as given is written as near as the format
//   allows and listed in `changes` (body.ts says what and why), never
//   dropped without a word; what is written as given but worth a word (a
//   tool name the APIs refuse) is listed there too, marked `kept`.

import { parse } from '../syntax/document.js';
import { unwritableString, type JsonValue } from '../tool-calls/index.js';
import { parseCell } from '../syntax/format/cell.js';
import { fnv1a } from '../base/hash.js';
import { prepareBody, prepareThinking, type PreparedBody } from './body.js';
import { toolElementXml } from '../tool-calls/rewrite.js';

export interface WriterOptions {
  /** Random numbers in [0, 1) for nonces; default: the platform's cryptographic source. */
  random?: () => number;
}

/** A change the writer made to what it was given, for the caller to report. */
export interface WriteChange {
  /** The id of the cell concerned. */
  cell: string;
  what: string;
  /** Written as given: `what` says why it is still worth a word. */
  kept?: true;
}

export interface MessageOptions {
  /** `system`: a system message at this place (spec section 5, `role`). Default `user`. */
  role?: 'user' | 'system';
  /** ISO 8601 with an offset or `Z`. */
  time?: string;
  title?: string;
  /** Other attributes (`userid`, …), written after the known ones. */
  attributes?: Record<string, string>;
}

export interface ReplyOptions {
  text?: string;
  /** The thinking paragraph (`[…]`): one paragraph, written first. */
  thinking?: string;
  time?: string;
  reasoning?: boolean;
  title?: string;
  attributes?: Record<string, string>;
}

export interface ToolCallOptions {
  name: string;
  /** `local` (the default) or an MCP server's name. */
  server?: string;
  /** The arguments, with their JSON types. */
  arguments?: Record<string, JsonValue>;
  /** The arguments exactly as the model wrote them (JSON text that need not be valid): `<arguments type="json">`. */
  rawArguments?: string;
  /** The id the model or provider gave the call (`call_id`). */
  callId?: string;
  /** Derive the nonce from this text instead of drawing it (the same text gives the same nonce, unless taken). */
  nonceFrom?: string;
  /** The model's text around the call, written before the `<tool>` element. */
  text?: string;
  time?: string;
  title?: string;
}

export interface ToolResultOptions {
  text: string;
  status?: 'success' | 'error';
  time?: string;
  /** `0.5s`, `120ms`, … */
  duration?: string;
  title?: string;
  /** Other attributes (`name`, `output`, …), written after the known ones. */
  attributes?: Record<string, string>;
}

export interface CodeOptions {
  /** The author's text around the code, written before it. */
  text?: string;
  time?: string;
  title?: string;
}

export interface CodeOutputOptions {
  /** The output's lines with their stream, or one text on stdout. */
  output: string | { stream: 'stdout' | 'stderr'; text: string }[];
  status?: 'success' | 'error';
  mimeType?: string;
  time?: string;
  duration?: string;
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;
/** What XML 1.0 cannot hold (as tool-calls/xml.ts's INVALID_CHAR_RE), line breaks aside. */
const INVALID_XML_CHARS = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Whether a value can be written on a metadata line (no line break; spec section 5). */
export function writableValue(value: string): boolean {
  return !/[\n\r]/.test(value);
}

/** `key=value`, quoted (with `\"` and `\\`) unless the value is a bare token. */
export function attribute(key: string, value: string): string {
  if (/^[A-Za-z0-9_.:+-]+$/.test(value) && !/^(?:time|call_id|name|role)$/.test(key)) return `${key}=${value}`;
  return `${key}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * Whether `written` on a metadata line reads back as the one attribute `key`
 * with `value`, and opens nothing (a comment, a `<tool>`) that would change
 * how the lines after it read: a key that is no KEY of spec section 5 does not.
 */
function readsBack(key: string, value: string, written: string): boolean {
  const parse = parseCell(`[^1]: [markdown] ${written}`, false);
  const meta = parse.metadata[0];
  const attr = meta?.attributes[0];
  return (
    parse.metadata.length === 1 && meta!.problems.length === 0 && meta!.attributes.length === 1 &&
    attr!.key === key && attr!.value === value && parse.tools.length === 0 && parse.comments.length === 0
  );
}

/** Appends cells to a message file's text; `text` is the file so far. */
export class MessageWriter {
  /** The text in pieces, joined when `text` is read: appending a cell costs its own length, not the file's. */
  private parts: string[] = [];
  /** The last two characters written, which say how the next cell is set apart. */
  private tail = '';
  private nextNumber = 1;
  private readonly nonces = new Set<string>();
  private readonly ids = new Set<string>();
  /** The next N of each call's results and each code cell's outputs. */
  private readonly counters = new Map<string, number>();
  private readonly random: () => number;
  readonly changes: WriteChange[] = [];

  /** A writer that appends to `text` (a message file, or '' for a new one). */
  constructor(text = '', options: WriterOptions = {}) {
    this.random = options.random ?? cryptoRandom;
    if (text !== '') {
      this.append(text);
      for (const cell of parse(text, { fileName: 'message.msg.md' }).cells) if (cell.id !== undefined) this.use(cell.id);
    }
  }

  /** The file's text with everything appended so far. */
  get text(): string {
    if (this.parts.length > 1) this.parts = [this.parts.join('')];
    return this.parts[0] ?? '';
  }

  private append(piece: string): void {
    this.parts.push(piece);
    this.tail = piece.length >= 2 ? piece.slice(-2) : (this.tail + piece).slice(-2);
  }

  private use(id: string): void {
    this.ids.add(id);
    const segs = id.split('.');
    if (segs.length === 1 && /^\d+$/.test(id)) this.nextNumber = Math.max(this.nextNumber, Number(id) + 1);
    if (segs.length >= 2) this.nonces.add(segs[1]!);
    if (segs.length >= 2 && /^\d+$/.test(segs[segs.length - 1]!)) {
      const parent = segs.slice(0, -1).join('.');
      this.counters.set(parent, Math.max(this.counters.get(parent) ?? 1, Number(segs[segs.length - 1]) + 1));
    }
  }

  private newNumber(): string {
    while (this.ids.has(String(this.nextNumber))) this.nextNumber++;
    return String(this.nextNumber++);
  }

  private newNonce(from?: string): string {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    for (let attempt = 0; ; attempt++) {
      let n = '';
      if (from !== undefined) {
        // Two hashes of the text and the attempt give the six characters (36^6 is more than 32 bits hold).
        const seed = `${attempt}\u0000${from}`;
        const digits = fnv1a(seed).toString(36).padStart(7, '0') + fnv1a(`${seed}\u0000`).toString(36).padStart(7, '0');
        n = digits.slice(1, 4) + digits.slice(8, 11);
      } else {
        for (let i = 0; i < 6; i++) n += alphabet[Math.floor(this.random() * alphabet.length) % alphabet.length];
      }
      if (/[a-z]/.test(n) && !this.nonces.has(n)) {
        this.nonces.add(n);
        return n;
      }
    }
  }

  private note(cell: string, changes: readonly string[], kept = false): void {
    for (const what of changes) this.changes.push({ cell, what, ...(kept ? { kept: true as const } : {}) });
  }

  private noteBody(cell: string, body: PreparedBody): void {
    this.note(cell, body.changes);
    this.note(cell, body.kept, true);
  }

  private attrs(cell: string, pairs: [string, string | undefined][]): string {
    let out = '';
    for (const [k, v] of pairs) {
      if (v === undefined) continue;
      if (!writableValue(v)) {
        this.note(cell, [`the attribute ${k} holds a line break and is left out`]);
        continue;
      }
      const written = attribute(k, v);
      if (!readsBack(k, v, written)) {
        this.note(cell, [`the attribute ${JSON.stringify(k)} would not read back as written and is left out`]);
        continue;
      }
      out += ` ${written}`;
    }
    return out;
  }

  private cell(marker: string, id: string, type: string, attributes: [string, string | undefined][], body: string, title?: string, empty = false): void {
    this.use(id);
    const prev = this.tail;
    let lead = prev === '' || prev === '\n\n' ? '' : prev.endsWith('\n') ? '\n' : '\n\n';
    // An empty message cell is reported as an omission; written on purpose, it is said so before its marker.
    if (empty) lead += '<!-- msglint-disable-next-line empty-cell -->\n';
    const heading = `${marker} ${title !== undefined && title.trim() !== '' && !/[\n\r]/.test(title) ? `${title.trim()} ` : ''}[^${id}]`;
    const meta = `[^${id}]: [${type}]${this.attrs(id, attributes)}`;
    this.append(`${lead}${heading}\n\n${meta}\n${body === '' ? '' : `\n${body}\n`}`);
  }

  /** A user message (or, with `role: 'system'`, a system message at this place). Returns its id. */
  message(body: string, options: MessageOptions = {}): string {
    const id = this.newNumber();
    const prepared = prepareBody(body);
    this.noteBody(id, prepared);
    const attributes: [string, string | undefined][] = [
      ['time', options.time],
      ['role', options.role === 'system' ? 'system' : undefined],
      ...Object.entries(options.attributes ?? {}),
    ];
    this.cell('# %%', id, 'markdown', attributes, prepared.text, options.title, prepared.empty);
    return id;
  }

  /** An agent reply of `agent` (a defined agent's name). Returns its id, the PARENT of its tool calls. */
  reply(agent: string, options: ReplyOptions = {}): string {
    const id = this.newNumber();
    const pieces: string[] = [];
    let empty = true;
    if (options.thinking !== undefined && options.thinking.trim() !== '') {
      empty = false;
      const t = prepareThinking(options.thinking);
      this.note(id, t.changes);
      pieces.push(t.text);
    }
    if (options.text !== undefined) {
      const b = prepareBody(options.text, { replyStart: pieces.length === 0 }, true);
      this.noteBody(id, b);
      if (b.text !== '') pieces.push(b.text);
      if (!b.empty) empty = false;
    }
    const attributes: [string, string | undefined][] = [
      ['time', options.time],
      ['reasoning', options.reasoning ? '1' : undefined],
      ...Object.entries(options.attributes ?? {}),
    ];
    // A reply with no text is not empty when tool calls follow it (they name it as PARENT); without them it is said so.
    this.cell('# %%%', id, agent, attributes, pieces.join('\n\n'), options.title, empty && pieces.length > 0);
    return id;
  }

  /** A tool call asked for by the reply `parent`. Returns its id, `PARENT.NONCE`. */
  toolCall(parent: string, call: ToolCallOptions): string {
    const id = `${parent}.${this.newNonce(call.nonceFrom)}`;
    let name = call.name;
    if (!writableValue(name) || unwritableString(name) !== undefined) {
      // `name` is a metadata attribute too, which holds no line break; XML holds no control character.
      name = name.replace(/[\r\n]+/g, ' ').replace(INVALID_XML_CHARS, '\uFFFD');
      this.note(id, ['the tool name holds a line break or a character XML cannot hold, written as a space or U+FFFD']);
    }
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) {
      this.note(id, ['tool names that the OpenAI and Anthropic APIs do not take, written as given (tool-name-syntax warns; export to those APIs refuses them, or with --force maps them)'], true);
    }
    let callId = call.callId;
    if (callId !== undefined && (callId.includes('"') || !writableValue(callId))) {
      this.note(id, ['the call id holds a quote or a line break and is left out (call_id)']);
      callId = undefined;
    }
    for (const [what, text] of [['server name', call.server], ['arguments text', call.rawArguments]] as const) {
      if (text !== undefined && unwritableString(text) !== undefined) this.note(id, [`the ${what} holds a character XML cannot hold, written as U+FFFD`]);
    }
    const xml = toolElementXml({
      name,
      ...(call.server !== undefined && call.server !== 'local' ? { server: call.server } : {}),
      ...(call.rawArguments !== undefined
        ? { rawArguments: call.rawArguments }
        : call.arguments !== undefined
          ? { arguments: call.arguments }
          : {}),
    });
    const pieces: string[] = [];
    if (call.text !== undefined) {
      const b = prepareBody(call.text, { replyStart: false });
      this.noteBody(id, b);
      if (b.text !== '') pieces.push(b.text);
    }
    pieces.push(xml);
    this.cell('## %%%', id, 'tool', [['name', name], ['call_id', callId], ['time', call.time]], pieces.join('\n\n'), call.title);
    return id;
  }

  /**
   * A tool call id (`PARENT.NONCE`) that no cell has and no later call gets:
   * for a result whose call is missing (the importer writes it as such a
   * fragment, which `tool-result-orphan` reports).
   */
  unknownCallId(parent: string, nonceFrom?: string): string {
    const id = `${parent}.${this.newNonce(nonceFrom)}`;
    this.nonces.add(id.split('.')[1]!);
    return id;
  }

  /** The next result of the tool call `call` (`CALL.N`). Returns its id. */
  toolResult(call: string, result: ToolResultOptions): string {
    const n = this.counters.get(call) ?? 1;
    const id = `${call}.${n}`;
    const b = prepareBody(result.text);
    this.noteBody(id, b);
    const attributes: [string, string | undefined][] = [['status', result.status], ['time', result.time], ['duration', result.duration], ...Object.entries(result.attributes ?? {})];
    this.cell('## %%%', id, 'tool', attributes, b.text, result.title);
    return id;
  }

  /** A code cell: `code` in a fenced block of `language`. Returns its id. */
  code(language: string, code: string, options: CodeOptions = {}): string {
    const id = this.newNumber();
    let c = code;
    if (c.includes('\r\n')) {
      this.note(id, ['CRLF line breaks written as LF']);
      c = c.replace(/\r\n/g, '\n');
    }
    let longest = 2;
    for (const m of c.matchAll(/^ {0,3}(`{3,})/gm)) longest = Math.max(longest, m[1]!.length);
    const f = '`'.repeat(longest + 1);
    const lang = SEGMENT.test(language) ? language : 'text';
    if (lang !== language) this.note(id, [`the language ${JSON.stringify(language)} is written as text`]);
    const pieces: string[] = [];
    if (options.text !== undefined) {
      const b = prepareBody(options.text);
      this.noteBody(id, b);
      if (b.text !== '') pieces.push(b.text);
    }
    pieces.push(`${f}${lang}\n${c}\n${f}`);
    this.cell('# %%', id, 'code', [['time', options.time]], pieces.join('\n\n'), options.title);
    return id;
  }

  /** The next output of the code cell `code` (`CODE.N`), typed with `language`. Returns its id. */
  codeOutput(code: string, language: string, output: CodeOutputOptions): string {
    const n = this.counters.get(code) ?? 1;
    const id = `${code}.${n}`;
    const lines =
      typeof output.output === 'string'
        ? output.output.replace(/\r\n/g, '\n').split('\n').map((text) => ({ stream: 'stdout' as const, text }))
        : output.output.flatMap((l) => l.text.replace(/\r\n/g, '\n').split('\n').map((text) => ({ stream: l.stream, text })));
    const body = lines.map((l) => (l.text === '' ? `${l.stream}>` : `${l.stream}> ${l.text}`)).join('\n');
    this.cell('# %%%', id, SEGMENT.test(language) ? language : 'text', [
      ['time', output.time],
      ['status', output.status],
      ['duration', output.duration],
      ['mime_type', output.mimeType],
    ], body);
    return id;
  }
}

function cryptoRandom(): number {
  const a = new Uint32Array(1);
  globalThis.crypto.getRandomValues(a);
  return a[0]! / 0x100000000;
}

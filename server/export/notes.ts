// What an export changes or risks that its output does not show, for the
// CLI to say on stderr (the exported text stays what the API takes):
// tool names sent differently from the file's (names.ts), a view that opens
// with an assistant message (which the Anthropic API has refused; nothing
// is made up before it) or ends with one (an Anthropic prefill), system
// messages after the first other message (Anthropic gets them in a user
// turn, anthropic.ts; the AI SDK takes them only when allowed), arguments
// written as `<arguments type="json">` that are no JSON object, the
// thinking paragraphs left out or sent as text (thinking.ts), several
// results of one call sent as one, and what the target has no field for
// (names, JSON outputs: results.ts).

import { MAX_JSON_DEPTH, sentAs, type JsonValue } from '../tool-calls/index.js';
import { API_FORMATS, type ExportFormat, type InternalToolCall, type LLMView } from './model.js';
import { TOOL_NAME_PATTERN, toolNames } from './names.js';
import { resultNotes } from './results.js';
import { applyThinking, thinkingNote, type ThinkingMode } from './thinking.js';

export interface ExportNote {
  /** The id of the cell it is about, when there is one. */
  cell?: string;
  message: string;
}

export function exportNotes(written: LLMView, to: ExportFormat, options: { thinking?: ThinkingMode } = {}): ExportNote[] {
  const notes: ExportNote[] = [];
  const thinking = thinkingNote(written, to, options.thinking);
  if (thinking) notes.push(thinking);
  // The rest is about what is sent, which a reply of thinking alone may not be.
  const view = applyThinking(written, to, options.thinking);
  const api = API_FORMATS.has(to);
  for (const c of toolNames(view.messages, api).changes) {
    const why: string[] = [];
    if (c.reasons.includes('server')) why.push('the view has tools of that name from more than one server');
    if (c.reasons.includes('pattern')) why.push(`the API takes only names matching \`${TOOL_NAME_PATTERN.source}\``);
    const what = c.server === 'local' ? `the tool \`${c.name}\`` : `the tool \`${c.name}\` of the server \`${c.server}\``;
    notes.push({ cell: c.callId, message: `${what} is sent as \`${c.sent}\`: ${why.join('; ')}` });
  }
  for (const m of view.messages) for (const c of m.toolCalls ?? []) rawNote(c, to, notes);
  if (to === 'anthropic') {
    for (const m of view.messages) {
      if (m.role !== 'system' || m.content === null || m.content.trim() === '') continue;
      notes.push({
        cell: m.source.cells[0],
        message: `the system message of cell ${m.source.cells[0]} comes after other messages; the Anthropic API takes one system prompt before the conversation, so it is sent as a text block "<system>…</system>" in a user turn at its place`,
      });
    }
  }
  if (to === 'vercel') {
    const system = view.messages.find((m) => m.role === 'system');
    if (system) {
      notes.push({
        cell: system.source.cells[0],
        message: `the view has system messages after other messages (cell ${system.source.cells[0]} first): they are in \`messages\`, which generateText takes with \`allowSystemInMessages: true\` (ai 7 refuses them without it, ai 6 warns)`,
      });
    }
  }
  const first = view.messages[0];
  const last = view.messages[view.messages.length - 1];
  if (to === 'anthropic' && first?.role === 'assistant') {
    notes.push({
      cell: first.source.cells[0],
      message: 'the view opens with an assistant message, and no user message is made up before it: the Anthropic API has refused a conversation that does not open with the user ("first message must use the user role"); add a message cell before it if yours does',
    });
  }
  if (to === 'anthropic' && last?.role === 'assistant') {
    notes.push({
      cell: last.source.cells[0],
      message: 'the view ends with an assistant message, which the Anthropic API takes as a prefill to continue; several current models reject prefill',
    });
  }
  notes.push(...resultNotes(view, to));
  return notes;
}

/** What `<arguments type="json">` holds, when it is no JSON object. */
function notAnObject(value: JsonValue | undefined, tooDeep?: true): string | undefined {
  if (value === undefined) return tooDeep ? `nested more than ${MAX_JSON_DEPTH} levels deep, more than msglint reads as JSON` : 'not JSON';
  if (value === null) return 'the JSON value null, not an object';
  if (Array.isArray(value)) return 'a JSON array, not an object';
  return typeof value === 'object' ? undefined : `a JSON ${typeof value}, not an object`;
}

/** The targets that send `<arguments type="json">` as its text; the others send the value it reads as. */
const SENT_AS_TEXT: ReadonlySet<ExportFormat> = new Set(['openai', 'vercel-legacy']);

/** A call whose `<arguments type="json">` is no JSON object: what the target gets instead (spec section 8); numbers a double does not hold, sent changed. */
function rawNote(c: InternalToolCall, to: ExportFormat, notes: ExportNote[]): void {
  const raw = c.rawArguments;
  // Anthropic sends `{}` for a value that is no object: nothing of it is sent.
  if (raw?.inexact && !SENT_AS_TEXT.has(to) && !(to === 'anthropic' && notAnObject(raw.value))) {
    const shown = raw.inexact.slice(0, 3).map((n) => `\`${short(n)}\` as \`${short(sentAs(n))}\``);
    const more = raw.inexact.length > 3 ? `, and ${raw.inexact.length - 3} more` : '';
    notes.push({
      cell: c.id,
      message: `the arguments of the call \`${c.function.name}\` (\`<arguments type="json">\`) hold numbers that a double does not hold, and --to ${to} sends the arguments as a value: ${shown.join(', ')}${more}`,
    });
  }
  const what = raw && notAnObject(raw.value, raw.tooDeep);
  if (!raw || !what) return;
  const are = `the arguments of the call \`${c.function.name}\` (\`<arguments type="json">\`) are ${what}`;
  if (to === 'anthropic') {
    notes.push({ cell: c.id, message: `${are}; the Anthropic API takes only an object as \`input\`, so it is sent as \`{}\`` });
  } else if (to === 'vercel') {
    const sent = raw.value === undefined ? 'their text, as a string' : 'that value';
    notes.push({ cell: c.id, message: `${are}; \`input\` is sent as ${sent}, which the SDK's providers may not take as it is (Anthropic's takes only an object)` });
  } else if (to === 'openai' || to === 'vercel-legacy') {
    notes.push({ cell: c.id, message: `${are}; \`function.arguments\` is sent as written` });
  }
}

/** A number as a note shows it: its first 40 characters. */
function short(n: string): string {
  return n.length > 40 ? `${n.slice(0, 40)}…` : n;
}

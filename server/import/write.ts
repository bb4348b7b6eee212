// A conversation written as a message file (spec section 9, "Import").
//
// Decisions where the spec is silent:
// - The agent is named after the model when the input names one (made one
//   id segment: `claude-3.5` -> `claude-3-5`), else `assistant`; it is the
//   default agent, and the only one.
// - The first system message, when it comes before every other message
//   (or the source's own `system` field), is the agent's `system_prompt`;
//   every other one is a `role="system"` message cell at its place.
// - An assistant message is one reply cell (its thinking first) followed by
//   one tool call cell per call; a reply with only calls has no text.
// - A result answers the call with its id; one without an id (Forge, the
//   legacy `function` role, context-json) the oldest call still unanswered,
//   or else the last call. A second
//   result of a call is its `.2`. A result with no call is still written,
//   as the result of a call id no cell has: `tool-result-orphan` reports it.
// - A message left empty (no text, no calls) is left out: export leaves
//   such messages out too, and providers reject them.
// - A tool call's nonce is derived from the call (its reply, id, name and
//   arguments), not drawn: the same input gives the same file, byte for
//   byte, so that importing it again shows no change (unless `random`).
// - A result keeps its own tool name (`name`) when the source's result
//   carries one it may leave out (OpenAI's tool message) or one that is not
//   its call's; an AI SDK JSON output is marked `output=json`. A message's
//   participant name (OpenAI's `name`) is its cell's `name`.

import { ArgumentsTooDeep } from '../tool-calls/index.js';
import { agentName, MessageWriter, startFile, type WriterOptions } from '../writer/index.js';
import { ImportError, type Conversation, type Dropped, type ImportedCall } from './model.js';

export function writeConversation(conv: Conversation, dropped: Dropped, options: WriterOptions = {}): string {
  const turns = [...conv.turns];
  let prompt = conv.system;
  const first = turns[0];
  if (prompt === undefined && first?.role === 'system') {
    prompt = first.text;
    turns.shift();
    // The system prompt is the agent's setting, which has no name.
    if (first.attributes?.name !== undefined) dropped.add('provider-only fields `name`', first.at);
  }
  const derived = options.random === undefined;
  const agent = agentName(conv.model ?? 'assistant');
  const spec: { models?: string[]; system_prompt?: string } = {};
  if (conv.model !== undefined) spec.models = [conv.model];
  if (prompt !== undefined && prompt !== '') spec.system_prompt = prompt;
  const w = new MessageWriter(startFile({ agents: { [agent]: spec }, default_agent: agent }), options);

  /** Call cells by the source's call id (the latest with that id), and those waiting for a result, in order. */
  const byId = new Map<string, string>();
  const callName = new Map<string, string>();
  const waiting = new Set<string>();
  const cellTurn = new Map<string, number>();
  let lastReply: string | undefined;
  let lastCall: string | undefined;

  for (const turn of turns) {
    switch (turn.role) {
      case 'user':
      case 'system': {
        if (turn.text === '') {
          dropped.add('empty messages', turn.at);
          break;
        }
        const id = w.message(turn.text, {
          ...(turn.role === 'system' ? { role: 'system' as const } : {}),
          ...(turn.time !== undefined ? { time: turn.time } : {}),
          ...(turn.attributes ? { attributes: turn.attributes } : {}),
        });
        cellTurn.set(id, turn.at);
        break;
      }
      case 'assistant': {
        if (turn.text === '' && !turn.calls.length && (turn.thinking ?? '').trim() === '') {
          dropped.add('empty messages', turn.at);
          break;
        }
        const reply = w.reply(agent, {
          text: turn.text,
          ...(turn.thinking !== undefined ? { thinking: turn.thinking } : {}),
          ...(turn.time !== undefined ? { time: turn.time } : {}),
          ...(turn.reasoning ? { reasoning: true } : {}),
          ...(turn.attributes ? { attributes: turn.attributes } : {}),
        });
        cellTurn.set(reply, turn.at);
        lastReply = reply;
        for (const call of turn.calls) {
          const id = writeCall(w, reply, call, turn.at, derived);
          cellTurn.set(id, turn.at);
          callName.set(id, call.name);
          if (call.id !== undefined) byId.set(call.id, id);
          waiting.add(id);
          lastCall = id;
        }
        break;
      }
      case 'tool': {
        let call: string | undefined;
        if (turn.callId !== undefined) call = byId.get(turn.callId);
        else call = oldest(waiting) ?? lastCall;
        if (call === undefined) {
          const parent = lastReply ?? 'orphan';
          call = w.unknownCallId(parent, derived ? `${parent}\u0000${turn.callId ?? ''}\u0000${turn.name ?? ''}` : undefined);
          dropped.add('changed: results without their call, written as results of a call that is not in the file', turn.at);
        }
        waiting.delete(call);
        const attributes: Record<string, string> = {};
        if (turn.name !== undefined && (turn.keepName || turn.name !== callName.get(call))) attributes.name = turn.name;
        if (turn.json) attributes.output = 'json';
        const id = w.toolResult(call, {
          text: turn.text,
          ...(turn.isError ? { status: 'error' as const } : {}),
          ...(turn.time !== undefined ? { time: turn.time } : {}),
          attributes,
        });
        cellTurn.set(id, turn.at);
        break;
      }
    }
  }
  for (const change of w.changes) dropped.add(`${change.kept ? 'kept' : 'changed'}: ${change.what}`, cellTurn.get(change.cell) ?? -1);
  return w.text;
}

/** One call's cell; a call whose arguments no form of the file holds refuses the import (ImportError). */
function writeCall(w: MessageWriter, reply: string, call: ImportedCall, at: number, derived: boolean): string {
  const args = 'object' in call.args ? JSON.stringify(call.args.object) : 'raw' in call.args ? call.args.raw : '';
  try {
    return w.toolCall(reply, {
      ...(derived ? { nonceFrom: [reply, call.id ?? '', call.server ?? '', call.name, args].join('\u0000') } : {}),
      name: call.name,
      ...(call.server !== undefined ? { server: call.server } : {}),
      ...('object' in call.args ? { arguments: call.args.object } : 'raw' in call.args ? { rawArguments: call.args.raw } : {}),
      ...(call.id !== undefined ? { callId: call.id } : {}),
      ...(call.text !== undefined ? { text: call.text } : {}),
      ...(call.time !== undefined ? { time: call.time } : {}),
    });
  } catch (error) {
    if (!(error instanceof ArgumentsTooDeep)) throw error;
    throw new ImportError(`message ${at + 1}: the call ${JSON.stringify(call.name.slice(0, 64))}: ${error.message}`);
  }
}

/** The oldest of a set (sets keep the order things were added in). */
function oldest<T>(set: ReadonlySet<T>): T | undefined {
  for (const x of set) return x;
  return undefined;
}

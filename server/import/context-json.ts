// msglint's own `--to context-json` (seed 001's indexed conversation), read
// back: see server/export/context-json.ts for the shape. Entries whose
// timestamp was estimated (`timestampEstimated`) get no `time`; a call entry
// joins the assistant entries right before it in the same turn, and its
// `result` is its result.

import { argsFromValue, Dropped, ImportError, isObject, timeOf, type Conversation, type Turn } from './model.js';

const CALL_KEYS = new Set(['toolCall', 'reasoning', 'result', 'isError', 'arguments']);

export function readContextJson(data: unknown, dropped: Dropped): Conversation {
  if (!Array.isArray(data)) throw new ImportError('expected an array of context-json entries');
  const conv: Conversation = { turns: [] };
  let open: Extract<Turn, { role: 'assistant' }> | undefined;
  let openTurn: unknown;
  let results: Turn[] = [];
  const flush = () => {
    conv.turns.push(...results);
    results = [];
    open = undefined;
  };
  data.forEach((e, at) => {
    if (!isObject(e) || typeof e.role !== 'string') throw new ImportError(`entry ${at + 1} is not a context-json entry`);
    const time = e.timestampEstimated === true ? undefined : timeOf(e.timestamp);
    const base = { at, ...(time !== undefined ? { time } : {}) };
    const c = e.content;
    if (e.role === 'system') {
      flush();
      conv.turns.push({ role: 'system', text: typeof c === 'string' ? c : '', ...base });
    } else if (e.role === 'user') {
      flush();
      const text = isObject(c) && typeof c.text === 'string' ? c.text : typeof c === 'string' ? c : '';
      const userid = isObject(c) && typeof c.userid === 'string' && c.userid !== 'user' ? c.userid : undefined;
      conv.turns.push({ role: 'user', text, ...base, ...(userid !== undefined ? { attributes: { userid } } : {}) });
    } else if (e.role === 'assistant' && isObject(c) && typeof c.toolCall === 'string') {
      // A call with an estimated time that is not its reply's came from another reply.
      const estimate = e.timestampEstimated === true ? timeOf(e.timestamp) : undefined;
      const sameTurn = open !== undefined && openTurn === e.turn && (estimate === undefined || open.time === undefined || estimate === open.time);
      if (!sameTurn) {
        flush();
        // The reply a call belongs to gives an estimated time to the call: it keeps the estimate, as the reply's time.
        const replyTime = time ?? timeOf(e.timestamp);
        open = { role: 'assistant', text: '', calls: [], at, ...(replyTime !== undefined ? { time: replyTime } : {}) };
        conv.turns.push(open);
      }
      const args = isObject(c.arguments) && Object.keys(c).every((k) => CALL_KEYS.has(k))
        ? c.arguments
        : Object.fromEntries(Object.entries(c).filter(([k]) => !CALL_KEYS.has(k)));
      open!.calls.push({ name: c.toolCall, args: argsFromValue(args), ...(typeof c.reasoning === 'string' ? { text: c.reasoning } : {}), ...(time !== undefined ? { time } : {}) });
      openTurn = e.turn;
      if (c.result !== undefined) {
        results.push({ role: 'tool', text: typeof c.result === 'string' ? c.result : JSON.stringify(c.result), ...(c.isError === true ? { isError: true } : {}), at });
      }
    } else if (e.role === 'assistant') {
      flush();
      const text = isObject(c) && typeof c.text === 'string' ? c.text : typeof c === 'string' ? c : '';
      open = { role: 'assistant', text, calls: [], ...base };
      if (isObject(c) && typeof c.reasoning === 'string') open.thinking = c.reasoning;
      openTurn = e.turn;
      conv.turns.push(open);
    } else {
      throw new ImportError(`entry ${at + 1} has the role ${JSON.stringify(e.role)}; context-json has system, user and assistant`);
    }
  });
  flush();
  return conv;
}

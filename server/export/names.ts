// Tool names as the targets send them.
//
// - OpenAI and Anthropic take only names matching TOOL_NAME_PATTERN (the
//   `tool-name-syntax` rule reports others). The API targets refuse a view
//   with such a name; with --force each one is sent mapped: characters
//   outside the pattern become `_`, an empty name `tool`, a name over 64
//   characters its first 55 and `_` and 8 hex digits of a hash.
// - The `server_name` of a call (an MCP server) has no field in any target,
//   so it goes into the name, and only where it is needed: when the view has
//   tools of one name from two servers, each one that is not `local` is sent
//   as `SERVER__NAME` (the server's characters outside the pattern become
//   `_`). Otherwise the name is sent as it is and the server is not sent.
// - Distinct (server, name) pairs always get distinct names: a mapped name
//   that would equal another pair's name ends with `_` and a hash of the pair.

import { TOOL_NAME_PATTERN, toolNameOf } from '../tool-calls/names.js';
import { shortHash } from './ids.js';
import type { InternalMessage, InternalToolCall } from './model.js';

export { TOOL_NAME_PATTERN, toolNameOf };


/** Between an MCP server's name and the tool's, when both are sent in the name. */
export const SERVER_SEPARATOR = '__';

const MAX_NAME = 64;

/** A name sent differently from the file's, and why. */
export interface NameChange {
  server: string;
  name: string;
  sent: string;
  /** `server`: qualified with its server; `pattern`: mapped to TOOL_NAME_PATTERN (both can apply). */
  reasons: ('server' | 'pattern')[];
  /** The id of the first call with this name. */
  callId: string;
}

export interface ToolNames {
  /** The name a call is sent with. */
  of(call: InternalToolCall): string;
  changes: NameChange[];
}

const key = (server: string, name: string) => `${server}\u0000${name}`;

/** The names of a history's calls; `api`: the target takes only TOOL_NAME_PATTERN. */
export function toolNames(history: Readonly<InternalMessage[]>, api: boolean): ToolNames {
  const pairs = new Map<string, { server: string; name: string; callId: string }>();
  const servers = new Map<string, Set<string>>();
  for (const m of history) {
    for (const c of m.toolCalls ?? []) {
      const k = key(c.server, c.function.name);
      if (!pairs.has(k)) pairs.set(k, { server: c.server, name: c.function.name, callId: c.id });
      let s = servers.get(c.function.name);
      if (!s) servers.set(c.function.name, (s = new Set()));
      s.add(c.server);
    }
  }

  const wanted = new Map<string, { sent: string; reasons: NameChange['reasons'] }>();
  for (const [k, p] of pairs) {
    const reasons: NameChange['reasons'] = [];
    let sent = p.name;
    if (servers.get(p.name)!.size > 1 && p.server !== 'local') {
      sent = `${api ? p.server.replace(/[^A-Za-z0-9_-]/g, '_') : p.server}${SERVER_SEPARATOR}${p.name}`;
      reasons.push('server');
    }
    if (api && !TOOL_NAME_PATTERN.test(sent)) {
      const fixed = validName(sent);
      // The server part is ours to shape; only the file's own name counts as mapped.
      if (!TOOL_NAME_PATTERN.test(p.name)) reasons.push('pattern');
      sent = fixed;
    }
    wanted.set(k, { sent, reasons });
  }

  // Names sent as written keep them; changed ones give way on a clash.
  const taken = new Set<string>();
  const final = new Map<string, string>();
  for (const [k, w] of wanted) {
    if (w.reasons.length) continue;
    taken.add(w.sent);
    final.set(k, w.sent);
  }
  const changes: NameChange[] = [];
  for (const [k, w] of wanted) {
    if (final.has(k)) continue;
    let sent = w.sent;
    if (taken.has(sent)) sent = withSuffix(sent, `_${shortHash(k)}`, api);
    for (let n = 2; taken.has(sent); n++) sent = withSuffix(w.sent, `_${n}`, api);
    taken.add(sent);
    final.set(k, sent);
    const p = pairs.get(k)!;
    if (sent !== p.name) changes.push({ server: p.server, name: p.name, sent, reasons: w.reasons, callId: p.callId });
  }
  return { of: (c) => final.get(key(c.server, c.function.name)) ?? c.function.name, changes };
}

/** A name that matches TOOL_NAME_PATTERN, as close to `name` as it can be. */
export function validName(name: string): string {
  let v = name.replace(/[^A-Za-z0-9_-]/g, '_');
  if (v === '') v = 'tool';
  if (v.length > MAX_NAME) v = `${v.slice(0, MAX_NAME - 9)}_${shortHash(name)}`;
  return v;
}

function withSuffix(name: string, suffix: string, api: boolean): string {
  return api && name.length + suffix.length > MAX_NAME ? name.slice(0, MAX_NAME - suffix.length) + suffix : name + suffix;
}


// A JSON reader (RFC 8259) for the legacy tool-call form. Unlike JSON.parse
// it keeps each value's span, the order of object keys and the spelling of
// numbers, and it reports the exact offset where the text stops being JSON.
// Depth is bounded, so no input can overflow the stack.

export const MAX_JSON_DEPTH = 256;
/** The reader's message for a text nested deeper than MAX_JSON_DEPTH. */
export const TOO_DEEP = `JSON nested more than ${MAX_JSON_DEPTH} deep.`;

interface Base {
  start: number;
  end: number;
}

export interface JsonEntry {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: JsonNode;
}

export type JsonNode =
  | (Base & { kind: 'string'; value: string })
  | (Base & { kind: 'number'; raw: string })
  | (Base & { kind: 'boolean'; value: boolean })
  | (Base & { kind: 'null' })
  | (Base & { kind: 'object'; entries: JsonEntry[] })
  | (Base & { kind: 'array'; items: JsonNode[] });

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface JsonError {
  start: number;
  end: number;
  message: string;
}

class Stop extends Error {
  constructor(readonly error: JsonError) {
    super(error.message);
  }
}

function show(text: string, i: number, limit: number): string {
  if (i >= limit) return 'the end of the text';
  const c = text[i]!;
  if (c === '\n' || c === '\r') return 'a line break';
  return `\`${c}\``;
}

/** Parses the JSON text in [start, limit), which must hold exactly one value (blanks around it allowed). */
export function parseJson(text: string, start: number, limit: number): { node: JsonNode } | { error: JsonError } {
  let i = start;
  const stop = (at: number, message: string, len = 1): never => {
    throw new Stop({ start: at, end: Math.min(at + len, Math.max(limit, at)), message });
  };
  const ws = (): void => {
    while (i < limit) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const str = (): Base & { kind: 'string'; value: string } => {
    const s = i;
    i++;
    let out = '';
    let chunk = i;
    for (;;) {
      if (i >= limit) stop(s, 'The string is not closed with `"`.');
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(chunk, i);
        i++;
        return { kind: 'string', start: s, end: i, value: out };
      }
      if (c < 0x20) stop(i, 'A JSON string may not hold a raw control character or line break; write `\\n` and the like.');
      if (c === 92) {
        out += text.slice(chunk, i);
        const e = text[i + 1];
        const map: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && i + 1 < limit && map[e] !== undefined) {
          out += map[e];
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) && i + 6 <= limit) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          stop(i, `\`\\${e ?? ''}\` is not a JSON escape.`, 2);
        }
        chunk = i;
        continue;
      }
      i++;
    }
  };
  const value = (depth: number): JsonNode => {
    ws();
    if (i >= limit) stop(i, 'Expected a JSON value.');
    const c = text[i]!;
    const s = i;
    if (c === '{' || c === '[') {
      if (depth >= MAX_JSON_DEPTH) stop(i, TOO_DEEP);
      i++;
      ws();
      if (c === '{') {
        const entries: JsonEntry[] = [];
        if (text[i] === '}' && i < limit) {
          i++;
          return { kind: 'object', start: s, end: i, entries };
        }
        for (;;) {
          ws();
          if (text[i] !== '"' || i >= limit) stop(i, `Expected a key in double quotes, found ${show(text, i, limit)}.`);
          const k = str();
          ws();
          if (text[i] !== ':' || i >= limit) stop(i, `Expected \`:\` after the key, found ${show(text, i, limit)}.`);
          i++;
          const v = value(depth + 1);
          entries.push({ key: k.value, keyStart: k.start, keyEnd: k.end, value: v });
          ws();
          if (text[i] === ',' && i < limit) {
            i++;
            continue;
          }
          if (text[i] === '}' && i < limit) {
            i++;
            return { kind: 'object', start: s, end: i, entries };
          }
          stop(i, `Expected \`,\` or \`}\`, found ${show(text, i, limit)}.`);
        }
      }
      const items: JsonNode[] = [];
      if (text[i] === ']' && i < limit) {
        i++;
        return { kind: 'array', start: s, end: i, items };
      }
      for (;;) {
        items.push(value(depth + 1));
        ws();
        if (text[i] === ',' && i < limit) {
          i++;
          continue;
        }
        if (text[i] === ']' && i < limit) {
          i++;
          return { kind: 'array', start: s, end: i, items };
        }
        stop(i, `Expected \`,\` or \`]\`, found ${show(text, i, limit)}.`);
      }
    }
    if (c === '"') return str();
    if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
      m.lastIndex = i;
      const r = m.exec(text);
      if (!r || r[0] === '-' || i + r[0].length > limit) stop(i, 'Not a JSON number.');
      i += r![0].length;
      return { kind: 'number', start: s, end: i, raw: r![0] };
    }
    for (const [word, node] of [
      ['true', { kind: 'boolean', value: true }],
      ['false', { kind: 'boolean', value: false }],
      ['null', { kind: 'null' }],
    ] as const) {
      if (text.startsWith(word, i) && i + word.length <= limit) {
        i += word.length;
        return { ...node, start: s, end: i } as JsonNode;
      }
    }
    return stop(i, `Unexpected ${show(text, i, limit)}: expected a JSON value.`);
  };
  try {
    const node = value(0);
    ws();
    if (i < limit) stop(i, `Unexpected ${show(text, i, limit)} after the JSON value.`);
    return { node };
  } catch (e) {
    if (e instanceof Stop) return { error: e.error };
    throw e;
  }
}

/** Sets a property safely (a key `__proto__` becomes an own property). */
export function setProp(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** The plain value of a node (later duplicate keys win, as with JSON.parse). */
export function jsonValue(node: JsonNode): JsonValue {
  switch (node.kind) {
    case 'string':
    case 'boolean':
      return node.value;
    case 'number':
      return Number(node.raw);
    case 'null':
      return null;
    case 'array':
      return node.items.map(jsonValue);
    case 'object': {
      const o: Record<string, JsonValue> = {};
      for (const e of node.entries) setProp(o, e.key, jsonValue(e.value));
      return o;
    }
  }
}

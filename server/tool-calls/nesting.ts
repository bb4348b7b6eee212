// How deep a call's arguments are nested, and so which form of spec section
// 8 holds them: typed argument elements as long as the XML reader's element
// depth allows (MAX_DEPTH counts `<tool>` and `<arguments>`), else
// `<arguments type="json">`, whose text is read back as JSON as long as the
// JSON reader's depth allows (MAX_JSON_DEPTH), else neither: a message file
// cannot hold them so that msglint reads them back. Measured without
// recursion, so that no value can overflow the stack here.

import { MAX_JSON_DEPTH, type JsonNode, type JsonValue } from './json.js';
import { MAX_DEPTH } from './xml.js';

/** The deepest level of a value in the arguments (the arguments object is level 0) that argument elements hold. */
export const MAX_ELEMENT_LEVEL = MAX_DEPTH - 2;
/** The deepest level of an object or array in the arguments that `<arguments type="json">` is read back from. */
export const MAX_JSON_CONTAINER_LEVEL = MAX_JSON_DEPTH - 1;

/** A call's arguments cannot be written so that they read back (see argumentsForm). */
export class ArgumentsTooDeep extends Error {
  override readonly name = 'ArgumentsTooDeep';
  constructor() {
    super(`the arguments are nested more than ${MAX_JSON_CONTAINER_LEVEL + 1} levels deep, more than a message file holds (spec section 8)`);
  }
}

export interface Nesting {
  /** The deepest level of any value, the root at level 0. */
  values: number;
  /** The deepest level of an object or array; -1 when there is none. */
  containers: number;
}

/**
 * How deep `root` is nested; the walk stops once a container is deeper than
 * `limit`, so a value nested a million levels costs no more than one nested
 * `limit + 1`. `children` gives a container's values (none for a scalar).
 */
export function nestingOf<T>(root: T, children: (value: T) => readonly T[] | undefined, limit = Infinity): Nesting {
  const found: Nesting = { values: 0, containers: -1 };
  const stack: [T, number][] = [[root, 0]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [value, level] = top;
    if (level > found.values) found.values = level;
    const kids = children(value);
    if (!kids) continue;
    if (level > found.containers) found.containers = level;
    if (level > limit) break;
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, level + 1]);
  }
  return found;
}

/** The values inside a JSON value (`JSON.parse`'s), none for a scalar. */
export function valueChildren(value: unknown): readonly unknown[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return Array.isArray(value) ? value : Object.values(value);
}

/** The values inside a JSON node, none for a scalar. */
function nodeChildren(node: JsonNode): readonly JsonNode[] | undefined {
  if (node.kind === 'array') return node.items;
  if (node.kind === 'object') return node.entries.map((e) => e.value);
  return undefined;
}

function formOf(n: Nesting): 'elements' | 'json' | 'too-deep' {
  if (n.values <= MAX_ELEMENT_LEVEL) return 'elements';
  return n.containers <= MAX_JSON_CONTAINER_LEVEL ? 'json' : 'too-deep';
}

/**
 * The form that holds a call's arguments so that they read back the same:
 * `elements` (typed argument elements), `json` (`<arguments type="json">`
 * with their JSON text) or `too-deep` (neither).
 */
export function argumentsForm(args: Record<string, JsonValue>): 'elements' | 'json' | 'too-deep' {
  return formOf(nestingOf<unknown>(args, valueChildren, MAX_JSON_CONTAINER_LEVEL));
}

/** argumentsForm of arguments read as JSON nodes (a legacy call's). */
export function argumentsNodeForm(args: JsonNode): 'elements' | 'json' | 'too-deep' {
  return formOf(nestingOf(args, nodeChildren, MAX_JSON_CONTAINER_LEVEL));
}

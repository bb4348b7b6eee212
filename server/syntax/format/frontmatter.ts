// YAML frontmatter (spec sections 1 and 7), parsed with `yaml`, which keeps
// every node's source range. Spans here are absolute offsets in the file.

import type { Document, Node, Pair } from 'yaml';
import { loadYaml } from '../../base/lazy.js';
import type { Span } from '../../base/text.js';
import { nestedTooDeep, parseSimpleYaml } from './simple-yaml.js';

// `yaml` is loaded on the first frontmatter, not at start-up: most runs of an
// editor hook or a pre-commit check should not pay for it when no file has one.
const yaml = loadYaml;
export const isMap = (n: unknown): n is import('yaml').YAMLMap => yaml().isMap(n);
export const isScalar = (n: unknown): n is import('yaml').Scalar => yaml().isScalar(n);
export const isSeq = (n: unknown): n is import('yaml').YAMLSeq => yaml().isSeq(n);

export interface YamlEntry {
  key: string;
  keySpan: Span;
  /** The value node's span (empty at the key's end when there is no value). */
  valueSpan: Span;
  /** The value as plain JavaScript (`toJSON`). */
  value: unknown;
  node: Node | null;
}

export interface FrontmatterAgent {
  name: string;
  nameSpan: Span;
  /** The agent's whole entry (key and value). */
  span: Span;
  settings: YamlEntry[];
  /** Set when the agent's value is not a mapping. */
  notAMapping?: boolean;
}

export interface FrontmatterProblem {
  span: Span;
  message: string;
}

export interface Frontmatter {
  /** From the opening `---` to the end of the closing line (with its line break). */
  start: number;
  end: number;
  /** The YAML text between the fence lines. */
  contentStart: number;
  contentEnd: number;
  closed: boolean;
  document?: Document;
  problems: FrontmatterProblem[];
  entries: YamlEntry[];
  agents: FrontmatterAgent[];
  /** `agents:` entry, when present. */
  agentsEntry?: YamlEntry;
  defaultAgent?: YamlEntry;
  messageSection?: YamlEntry;
}

/**
 * The offset of a `---` first line (after a BOM) that no `---` or `...`
 * line closes, or -1: such a block is not frontmatter but Markdown, and the
 * settings in it are lost.
 */
export function unclosedFrontmatter(text: string): number {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  return openerEnd(text, start) !== -1 && !findFrontmatter(text, start) ? start : -1;
}

/** The end of the line at `start` (its LF, or the text's end) when the line is `---`; -1 otherwise. */
function openerEnd(text: string, start: number): number {
  const nl = text.indexOf('\n', start);
  const end = nl === -1 ? text.length : nl;
  return text.slice(start, end).replace(/\r$/, '') === '---' ? end : -1;
}

/** Finds the frontmatter block: `---` on the first line up to the next `---` or `...` line. */
export function findFrontmatter(text: string, start: number): { end: number; contentStart: number; contentEnd: number } | null {
  const firstEnd = openerEnd(text, start);
  if (firstEnd === -1 || firstEnd === text.length) return null;
  let p = firstEnd + 1;
  while (p <= text.length) {
    let nl = text.indexOf('\n', p);
    if (nl === -1) nl = text.length;
    const line = text.slice(p, nl).replace(/\r$/, '');
    if (line === '---' || line === '...') {
      return { end: Math.min(nl + 1, text.length), contentStart: firstEnd + 1, contentEnd: p };
    }
    if (nl >= text.length) break;
    p = nl + 1;
  }
  return null;
}

function spanOf(node: Node | null | undefined, base: number, fallback: number): Span {
  const r = node?.range;
  if (!r) return { start: fallback, end: fallback };
  return { start: base + r[0], end: base + r[1] };
}

/**
 * The plain value of a node read by parseSimpleYaml: what `toJS` gives for
 * it (no aliases, tags or odd keys there), without the library's context
 * for each of the three levels entriesOf is called on.
 */
function plainValue(node: unknown): unknown {
  if (isScalar(node)) return node.value;
  if (isSeq(node)) return node.items.map(plainValue);
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items as Pair<unknown, unknown>[]) out[String((pair.key as { value: unknown }).value)] = plainValue(pair.value);
    return out;
  }
  return null;
}

function entriesOf(map: unknown, base: number, doc: Document, problems: FrontmatterProblem[], simple = false): YamlEntry[] {
  if (!isMap(map)) return [];
  const out: YamlEntry[] = [];
  for (const pair of map.items as Pair<unknown, unknown>[]) {
    const keyNode = pair.key as Node | null;
    const key = isScalar(keyNode) ? String(keyNode.value) : keyNode ? String(keyNode) : '';
    const keySpan = spanOf(keyNode, base, base);
    const valueNode = (pair.value ?? null) as Node | null;
    if (simple) {
      out.push({ key, keySpan, valueSpan: spanOf(valueNode, base, keySpan.end), value: plainValue(valueNode), node: valueNode });
      continue;
    }
    let value: unknown = null;
    try {
      // With the document, aliases read as the values they name; the cap
      // turns an alias bomb into an error instead of a hang.
      value = valueNode ? (valueNode as unknown as { toJS(d: Document, o: object): unknown }).toJS(doc, { maxAliasCount: 100 }) : null;
      if (isCircular(value)) throw new Error('an alias refers to itself');
    } catch (e) {
      value = undefined;
      problems.push({ span: spanOf(valueNode, base, keySpan.end), message: `Frontmatter is not valid YAML: ${(e as Error).message}` });
    }
    out.push({ key, keySpan, valueSpan: spanOf(valueNode, base, keySpan.end), value, node: valueNode });
  }
  return out;
}

/** Whether a value read from YAML contains itself (a recursive alias). */
function isCircular(value: unknown): boolean {
  const onPath = new Set<object>();
  const visit = (v: unknown): boolean => {
    if (v === null || typeof v !== 'object') return false;
    if (onPath.has(v)) return true;
    onPath.add(v);
    const children = Array.isArray(v) ? v : v instanceof Map ? [...v.values()] : Object.values(v);
    for (const c of children) if (visit(c)) return true;
    onPath.delete(v);
    return false;
  };
  return visit(value);
}

/** Frontmatter larger than this is reported, not parsed. */
const MAX_FRONTMATTER = 256 * 1024;

/** At most this many YAML errors are kept: they cascade, and the first ones say what is wrong. */
const MAX_YAML_ERRORS = 20;

/** Deeper frontmatter is reported, not handed to the YAML library (see nestedTooDeep). */
const MAX_NESTING = 200;

/**
 * Keys repeated in a mapping. Done here with one Set per mapping because the
 * parser's own check compares each key with every earlier one (quadratic in
 * a large frontmatter).
 */
function duplicateKeys(doc: Document, base: number, problems: FrontmatterProblem[]): void {
  const stack: unknown[] = [doc.contents];
  while (stack.length && problems.length < MAX_YAML_ERRORS) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items as Pair<unknown, unknown>[]) {
        const k = pair.key as Node | null;
        if (isScalar(k)) {
          const key = String(k.value);
          if (seen.has(key)) problems.push({ span: spanOf(k, base, base), message: `Frontmatter is not valid YAML: map keys must be unique; \`${key}\` appears twice` });
          seen.add(key);
        }
        stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    }
  }
}

/** `simple: false`: always read with the YAML library (tests compare the two paths). */
export function parseFrontmatter(text: string, start: number, options: { simple?: boolean } = {}): Frontmatter | undefined {
  const found = findFrontmatter(text, start);
  if (!found) return undefined;
  const fm: Frontmatter = {
    start,
    end: found.end,
    contentStart: found.contentStart,
    contentEnd: found.contentEnd,
    closed: true,
    problems: [],
    entries: [],
    agents: [],
  };
  const base = found.contentStart;
  if (found.contentEnd - found.contentStart > MAX_FRONTMATTER) {
    // The YAML library needs hundreds of bytes of memory per byte of a large
    // document; a real frontmatter is a few lines.
    fm.problems.push({
      span: { start, end: Math.min(found.end, start + 3) },
      message: `Frontmatter is too large to read (${Math.ceil((found.contentEnd - found.contentStart) / 1024)} KB; msglint reads at most 256 KB of frontmatter)`,
    });
    return fm;
  }
  // A copy, not a slice: the parsed frontmatter is reused by later versions
  // and must not keep this version's whole text alive.
  const source = (' ' + text.slice(found.contentStart, found.contentEnd)).slice(1);
  const deep = nestedTooDeep(source, MAX_NESTING);
  if (deep !== -1) {
    fm.problems.push({
      span: { start: base + deep, end: base + deep + 1 },
      message: `Frontmatter is not valid YAML: it is nested too deeply to read (more than ${MAX_NESTING} levels)`,
    });
    return fm;
  }
  let doc: Document;
  let simple = false;
  try {
    const read = options.simple !== false ? parseSimpleYaml(yaml(), source) : undefined;
    simple = read !== undefined;
    doc = read ?? yaml().parseDocument(source, { uniqueKeys: false, prettyErrors: false });
  } catch (e) {
    const message = e instanceof RangeError ? 'it is nested too deeply to read' : (e as Error).message;
    fm.problems.push({ span: { start: base, end: found.contentEnd }, message: `Frontmatter is not valid YAML: ${message}` });
    return fm;
  }
  fm.document = doc;
  for (const err of doc.errors.slice(0, MAX_YAML_ERRORS)) {
    const [a, b] = err.pos;
    const message = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    fm.problems.push({ span: { start: base + a, end: base + Math.max(b, a) }, message: `Frontmatter is not valid YAML: ${message}` });
  }
  if (doc.errors.length) return fm;
  // The simple reader refuses a repeated key, so only the library's documents can have one.
  if (!simple) duplicateKeys(doc, base, fm.problems);
  if (fm.problems.length) return fm;
  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) return fm;
  if (!isMap(contents)) {
    fm.problems.push({ span: spanOf(contents, base, base), message: 'Frontmatter must be a YAML mapping (key: value lines).' });
    return fm;
  }
  fm.entries = entriesOf(contents, base, doc, fm.problems, simple);
  for (const e of fm.entries) {
    if (e.key === 'agents') fm.agentsEntry = e;
    else if (e.key === 'default_agent') fm.defaultAgent = e;
    else if (e.key === 'message_section') fm.messageSection = e;
  }
  if (fm.agentsEntry && isMap(fm.agentsEntry.node)) {
    for (const a of entriesOf(fm.agentsEntry.node, base, doc, fm.problems, simple)) {
      fm.agents.push({
        name: a.key,
        nameSpan: a.keySpan,
        span: { start: a.keySpan.start, end: a.valueSpan.end },
        settings: entriesOf(a.node, base, doc, fm.problems, simple),
        notAMapping: a.node !== null && !isMap(a.node),
      });
    }
  }
  return fm;
}

/** The message section's heading text a frontmatter asks for, or null. */
export function messageSectionName(fm: Frontmatter | undefined, text?: string): string | null {
  if (fm && fm.problems.length && !fm.messageSection && text !== undefined) {
    // Broken YAML must not hide the file from the linter (and so hide the
    // YAML error itself): read a top-level `message_section:` line directly.
    const m = /^message_section:[ \t]*(.*?)[ \t]*$/m.exec(text.slice(fm.contentStart, fm.contentEnd));
    if (m) {
      const raw = m[1]!.replace(/^(["'])(.*)\1$/, '$2').trim();
      if (raw === '' || raw === 'false' || raw === 'null' || raw === '~') return null;
      return raw === 'true' ? 'Discussion' : raw;
    }
  }
  const v = fm?.messageSection?.value;
  if (v === true) return 'Discussion';
  if (typeof v === 'string' && v.trim() !== '') return v.trim();
  if (typeof v === 'number') return String(v);
  return null;
}



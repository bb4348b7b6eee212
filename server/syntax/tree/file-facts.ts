// What a version knows of the whole file beside its segments: the
// file-wide facts by index (FileFacts, made by facts.ts), the agents, the
// metadata lines, and the type names the format reserves.

import type { MetadataNode } from '../format/metadata.js';
import type { ChunkedList } from '../../base/chunked-list.js';
import type { MetadataEntry, Segment } from './segment.js';

/** FileFacts.cellFacts: the bits of a cell's kind (its index in CELL_KINDS). */
export const KIND_BITS = 0xff;
/** FileFacts.cellFacts: the cell's id fits (MessageDocument.idFits). */
export const ID_FITS = 0x100;
/** FileFacts.cellFacts: the cell's kind is known (MessageDocument.kindKnown). */
export const KIND_KNOWN = 0x200;

/** @internal File-wide facts (facts.ts; the editor's path's in splice.ts). */
export interface FileFacts {
  /** Per cell, its kind's index in CELL_KINDS with the bits ID_FITS and KIND_KNOWN (MessageDocument.kindOf, idFits, kindKnown). */
  cellFacts: ChunkedList<number>;
  /** Per cell, its metadata line (MessageDocument.metadataOf). */
  cellMeta: ChunkedList<MetadataEntry | undefined>;
  /** The metadata lines of the body agents, in `agents` order. */
  bodyAgents: readonly MetadataEntry[];
  /** How many code blocks name each language (lower case; none: not in the map): MessageDocument.codeLanguages, isLanguage. */
  languageCounts: Map<string, number>;
  /** How many metadata lines have each type (as written): which code languages the lint reads (MessageDocument.languagesRead). */
  typeCounts: Map<string, number>;
}

export interface AgentDefinition {
  name: string;
  source: 'frontmatter' | 'body' | 'config';
  /** Absolute offsets of the name. */
  at: [number, number];
  /** For body agents: the metadata line. */
  metadata?: { segment: Segment; node: MetadataNode };
  /** Absolute offset from which a body agent may be used. */
  from: number;
}

export type { MetadataEntry } from './segment.js';

/** Common languages that name a code output without a code cell in sight. */
export const COMMON_LANGUAGES: ReadonlySet<string> = new Set([
  'python', 'py', 'python3', 'ipython', 'javascript', 'js', 'node', 'typescript', 'ts', 'bash', 'sh', 'shell', 'zsh',
  'fish', 'powershell', 'pwsh', 'r', 'sql', 'julia', 'ruby', 'rb', 'go', 'rust', 'java', 'kotlin', 'scala', 'c',
  'cpp', 'c++', 'csharp', 'cs', 'php', 'perl', 'lua', 'swift', 'haskell', 'elixir', 'erlang', 'ocaml', 'matlab',
  'octave', 'dart', 'deno', 'console', 'text', 'plaintext', 'html', 'json', 'yaml', 'markdown-output',
]);

export const MESSAGE_TYPES: ReadonlySet<string> = new Set(['markdown', 'code', 'raw']);
export const RESERVED_TYPES: ReadonlySet<string> = new Set(['tool', 'agent', 'markdown', 'code', 'raw']);

/** The agents of a version by name, and the offsets where the default agent changes (MessageDocument.agentIndex). */
export interface AgentIndex {
  /** How many agents it was made from: `agents` is filled while the facts are made. */
  count: number;
  byName: Map<string, AgentDefinition[]>;
  defaults: { from: number; name: string }[];
}

/** The agents by name, and where a body agent with `default=1` changes the default. */
export function indexAgents(agents: readonly AgentDefinition[]): AgentIndex {
  const byName = new Map<string, AgentDefinition[]>();
  const defaults: { from: number; name: string }[] = [];
  for (const a of agents) {
    const list = byName.get(a.name);
    if (list) list.push(a);
    else byName.set(a.name, [a]);
    if (a.source === 'body' && a.metadata) {
      const d = a.metadata.node.attributes.find((x) => x.key === 'default');
      if (d && (d.value === '1' || d.value === 'true')) defaults.push({ from: a.from, name: a.name });
    }
  }
  defaults.sort((x, y) => x.from - y.from);
  return { count: agents.length, byName, defaults };
}

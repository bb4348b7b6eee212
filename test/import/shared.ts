// The conversations of ../shared/external/conversations (never copied into
// the project): where they are, their README's table (class and features of
// each file), and canon.mjs, imported from there at test time.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SHARED = process.env.MSGLINT_SHARED ?? path.resolve(ROOT, '../shared');
export const CONVERSATIONS = path.join(SHARED, 'external/conversations');
/** Why the corpus tests skip, or undefined when the corpus is there. */
export const MISSING = existsSync(path.join(CONVERSATIONS, 'README.md'))
  ? undefined
  : `${CONVERSATIONS} is absent (the shared test data; set MSGLINT_SHARED to the folder holding external/conversations)`;

export interface Conversation {
  file: string;
  provider: string;
  cls: 'N' | 'L' | 'X';
  features: string[];
  data: unknown;
}

/** Every file of the README's table, with its data. */
export function conversations(): Conversation[] {
  if (MISSING) return [];
  const readme = readFileSync(path.join(CONVERSATIONS, 'README.md'), 'utf8');
  const out: Conversation[] = [];
  for (const m of readme.matchAll(/^\| `([^`]+)` \| ([a-z-]+) \| \d+ \| ([NLX]) \| ([^|]*)\|/gm)) {
    const record = JSON.parse(readFileSync(path.join(CONVERSATIONS, m[1]!), 'utf8')) as { data: unknown };
    out.push({ file: m[1]!, provider: m[2]!, cls: m[3] as 'N' | 'L' | 'X', features: m[4]!.split(',').map((f) => f.trim()).filter(Boolean), data: record.data });
  }
  return out;
}

type Canon = (provider: string, data: unknown, options?: { keepIds?: boolean }) => unknown;

/** canon() of canon.mjs. */
export async function loadCanon(): Promise<Canon> {
  const mod = (await import(pathToFileURL(path.join(CONVERSATIONS, 'canon.mjs')).href)) as { canon: Canon };
  return mod.canon;
}

/** A deterministic stand-in for the nonces' random source: the same file on every import. */
export function seeded(seed = 1): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

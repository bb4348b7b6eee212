// Tokenizes Markdown the way VS Code does: vscode-textmate with the
// Oniguruma WebAssembly build, VS Code's Markdown grammar (from
// `tm-grammars`, which ships it as JSON) as the host, and the extension's
// injection grammar registered for `text.html.markdown`, as its manifest's
// `injectTo` asks.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';

const require = createRequire(import.meta.url);
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLIENT = path.join(ROOT, 'client');

interface GrammarContribution {
  scopeName: string;
  path: string;
  injectTo?: string[];
}

export function manifest(): {
  contributes: { grammars: GrammarContribution[] };
  [key: string]: unknown;
} {
  return JSON.parse(readFileSync(path.join(CLIENT, 'package.json'), 'utf8'));
}

export interface Token {
  text: string;
  start: number;
  end: number;
  scopes: string[];
}

let registryPromise: Promise<vsctm.Registry> | undefined;

function registry(): Promise<vsctm.Registry> {
  registryPromise ??= (async () => {
    const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
    const onigLib = Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    });
    // Grammars by scope: the host from tm-grammars, ours from the manifest.
    const files = new Map<string, string>([['text.html.markdown', require.resolve('tm-grammars/grammars/markdown.json')]]);
    const injections = new Map<string, string[]>();
    for (const g of manifest().contributes.grammars) {
      files.set(g.scopeName, path.join(CLIENT, g.path));
      for (const host of g.injectTo ?? []) injections.set(host, [...(injections.get(host) ?? []), g.scopeName]);
    }
    return new vsctm.Registry({
      onigLib,
      loadGrammar: async (scopeName) => {
        const file = files.get(scopeName);
        // Other embedded grammars (YAML, Python, HTML) are not loaded: their
        // regions stay in the host's scopes, which is all these tests need.
        if (!file) return null;
        return vsctm.parseRawGrammar(readFileSync(file, 'utf8'), file);
      },
      getInjections: (scopeName) => injections.get(scopeName),
    });
  })();
  return registryPromise;
}

/** The tokens of every line of a Markdown text. */
export async function tokenizeMarkdown(text: string): Promise<Token[][]> {
  const grammar = await (await registry()).loadGrammar('text.html.markdown');
  if (!grammar) throw new Error('The Markdown grammar did not load');
  const lines = text.split(/\r?\n/);
  let state = vsctm.INITIAL;
  const out: Token[][] = [];
  for (const line of lines) {
    const r = grammar.tokenizeLine(line, state);
    out.push(
      r.tokens.map((t) => ({
        text: line.slice(t.startIndex, Math.min(t.endIndex, line.length)),
        start: t.startIndex,
        end: Math.min(t.endIndex, line.length),
        scopes: t.scopes,
      })),
    );
    state = r.ruleStack;
  }
  return out;
}

/** A tokenized file with look-ups by line text. */
export class Tokenized {
  private constructor(
    readonly lines: string[],
    readonly tokens: Token[][],
  ) {}

  static async of(text: string): Promise<Tokenized> {
    return new Tokenized(text.split(/\r?\n/), await tokenizeMarkdown(text));
  }

  /** The index of the first line equal to `line` (or starting with it, when `prefix`). */
  lineIndex(line: string, { prefix = false, from = 0 } = {}): number {
    const i = this.lines.findIndex((l, n) => n >= from && (prefix ? l.startsWith(line) : l === line));
    if (i === -1) throw new Error(`No line ${JSON.stringify(line)}`);
    return i;
  }

  /** The scopes at a character of a line. */
  scopesAt(line: number, character: number): string[] {
    const t = this.tokens[line]!.find((tok) => tok.start <= character && character < tok.end);
    if (!t) throw new Error(`No token at ${line}:${character} (${JSON.stringify(this.lines[line])})`);
    return t.scopes;
  }

  /**
   * The scopes of each character of `fragment` in the line `line` (its
   * `nth` occurrence), which must be the same along the fragment.
   */
  scopesOf(line: number, fragment: string, nth = 0): string[] {
    const text = this.lines[line]!;
    let at = -1;
    for (let k = 0; k <= nth; k++) {
      at = text.indexOf(fragment, at + 1);
      if (at === -1) throw new Error(`${JSON.stringify(fragment)} is not in line ${line}: ${JSON.stringify(text)}`);
    }
    const first = this.scopesAt(line, at);
    for (let c = at + 1; c < at + fragment.length; c++) {
      const s = this.scopesAt(line, c);
      if (s.join(' ') !== first.join(' ')) {
        throw new Error(`${JSON.stringify(fragment)} in line ${line} spans tokens: [${first.join(', ')}] then [${s.join(', ')}] at ${c}`);
      }
    }
    return first;
  }

  /** Every scope used anywhere on a line. */
  lineScopes(line: number): Set<string> {
    return new Set(this.tokens[line]!.flatMap((t) => t.scopes));
  }

  /** A readable dump (for failing tests and for looking). */
  dump(from = 0, to = this.lines.length): string {
    const out: string[] = [];
    for (let i = from; i < to; i++) {
      out.push(`${i}: ${this.lines[i]}`);
      for (const t of this.tokens[i]!) out.push(`    ${JSON.stringify(t.text)} ${t.scopes.slice(1).join(' ')}`);
    }
    return out.join('\n');
  }
}

// One config file's text as data: JSON with comments and trailing commas
// (`.json`, `.jsonc`), plain JSON (`package.json`'s "msglint" key) or YAML
// (anything else). Configs are data, never code (issue 45): a JavaScript
// module is refused before anything is read. A syntax error says what and
// where (line, column), never what the text holds: the text may be any file
// a link leads to.

import path from 'node:path';
import type { Node, ParseError } from 'jsonc-parser';
import { loadJsonc, loadYaml, type JsoncModule } from '../base/lazy.js';
import { nestedTooDeep as yamlNestedTooDeep } from '../syntax/format/simple-yaml.js';
import { ConfigError } from './errors.js';
import { validateConfig, type ConfigFileData, type KnownRules } from './validate.js';

/** The names of the configs read as JSON (a package.json aside). */
const JSON_NAME = /\.jsonc?$/i;

/** The names of JavaScript and TypeScript modules, which msglint never loads as configs. */
const MODULE_NAME = /\.[cm]?[jt]sx?$/i;

export function isModuleName(file: string): boolean {
  return MODULE_NAME.test(path.basename(file));
}

/** Why a module is refused, after "<what>: ". */
export const MODULE_REFUSED = 'is a JavaScript module; msglint reads configs as data (JSON or YAML) and runs no code';

/**
 * The config `text` (read from `configPath`, named `label` in messages)
 * holds, validated; undefined for a package.json without a "msglint" key.
 */
export function parseConfig(text: string, configPath: string, label: string, rules: KnownRules): ConfigFileData | undefined {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const base = path.basename(configPath);
  try {
    if (base === 'package.json') {
      const pkg = parseJson(text, label, true);
      const section = typeof pkg === 'object' && pkg !== null ? (pkg as Record<string, unknown>).msglint : undefined;
      return section === undefined ? undefined : validateConfig(section, label, rules, 'msglint.');
    }
    const data = JSON_NAME.test(base) ? parseJson(text, label, false) : parseYaml(text, label);
    return validateConfig(data, label, rules);
  } catch (error) {
    if (error instanceof ConfigError && error.configPath === undefined) throw new ConfigError(error.message, configPath);
    throw error;
  }
}

/** Past this depth a config is refused: far past any real one, and short of what a reader by recursion can take. */
const MAX_NESTING = 200;

/** What each of jsonc-parser's errors says, by its name (printParseErrorCode). */
const JSON_PROBLEMS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name',
  ValueExpected: 'expected a value',
  ColonExpected: "expected ':'",
  CommaExpected: "expected ','",
  CloseBraceExpected: "expected '}'",
  CloseBracketExpected: "expected ']'",
  EndOfFileExpected: 'expected the end of the file',
  InvalidCommentToken: 'a comment, which package.json may not hold',
  UnexpectedEndOfComment: 'a comment that does not end',
  UnexpectedEndOfString: 'a string that does not end on its line',
  UnexpectedEndOfNumber: 'a number that does not end',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape',
  InvalidCharacter: 'a control character in a string',
};

/**
 * JSON as VS Code reads its settings (jsonc-parser): comments and trailing
 * commas allowed, except in a package.json (`plain`), which npm reads as
 * JSON. An error says what kind and where, from the library's code and
 * offset, never the text.
 */
function parseJson(text: string, label: string, plain: boolean): unknown {
  const jsonc = loadJsonc();
  const fail = (problem: string, offset: number): never => {
    const { line, column } = lineAndColumn(text, offset);
    throw new ConfigError(`${label}: invalid JSON: ${problem} (line ${line}, column ${column})`);
  };
  // The library parses nested values by recursion: a bound first, by its scanner, which loops.
  const deep = jsonNestedTooDeep(jsonc, text, MAX_NESTING);
  if (deep !== -1) fail(`nested more than ${MAX_NESTING} levels deep`, deep);
  const errors: ParseError[] = [];
  const root = jsonc.parseTree(text, errors, { disallowComments: plain, allowTrailingComma: !plain });
  const [first] = errors;
  if (first) fail(JSON_PROBLEMS[jsonc.printParseErrorCode(first.error)] ?? 'unexpected character', first.offset);
  return root === undefined ? fail('expected a value', text.length) : valueOf(root);
}

/**
 * The offset where `text` opens its `limit + 1`th nested object or array,
 * or -1. (The token kinds are read from the module, not imported: they are
 * a `const enum`, which esbuild, bundling the sources file by file, cannot
 * inline, and an import would load the library with the module.)
 */
function jsonNestedTooDeep(jsonc: JsoncModule, text: string, limit: number): number {
  const scanner = jsonc.createScanner(text, true);
  let depth = 0;
  for (let token = scanner.scan(); token !== jsonc.SyntaxKind.EOF; token = scanner.scan()) {
    if (token === jsonc.SyntaxKind.OpenBraceToken || token === jsonc.SyntaxKind.OpenBracketToken) {
      if (++depth > limit) return scanner.getTokenOffset();
    } else if (token === jsonc.SyntaxKind.CloseBraceToken || token === jsonc.SyntaxKind.CloseBracketToken) depth--;
  }
  return -1;
}

/**
 * A parsed node's value as JSON.parse gives it: a key is always the
 * object's own property ("__proto__" included, which an assignment would
 * take for the object's prototype) and the last of two equal keys wins.
 */
function valueOf(node: Node): unknown {
  if (node.type === 'array') return node.children!.map(valueOf);
  if (node.type !== 'object') return node.value;
  return Object.fromEntries(node.children!.map(({ children }) => [children![0]!.value as string, valueOf(children![1]!)]));
}

function parseYaml(text: string, label: string): unknown {
  // The library reads nested nodes by recursion: far too deep, and V8 may
  // abort the process rather than throw (see nestedTooDeep).
  const deep = yamlNestedTooDeep(text, MAX_NESTING);
  if (deep !== -1) {
    const { line, column } = lineAndColumn(text, deep);
    throw new ConfigError(`${label}: invalid YAML: nested more than ${MAX_NESTING} levels deep (line ${line}, column ${column})`);
  }
  // Loaded on first use: most runs have no YAML config, and config loading is
  // synchronous by contract (the language server calls it from handlers).
  const doc = loadYaml().parseDocument(text);
  const [first] = doc.errors;
  if (first) {
    // The library's message quotes the text; its code says what is wrong.
    const at = first.linePos?.[0];
    const where = at ? ` at line ${at.line}, column ${at.col}` : '';
    throw new ConfigError(`${label}: invalid YAML: ${first.code.toLowerCase().replace(/_/g, ' ')}${where}`);
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch {
    // An alias without its anchor, or too many aliases: the message would name them.
    throw new ConfigError(`${label}: invalid YAML: its aliases cannot be resolved`);
  }
  // An empty YAML file is an empty config rather than an error.
  return value ?? {};
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

// One config file's text as data: JSON (`.json`, and `package.json`'s
// "msglint" key) or YAML (anything else). Configs are data, never code
// (issue 45): a JavaScript module is refused before anything is read.
// A syntax error says what and where (line, column), never what the text
// holds: the text may be any file a link leads to.

import path from 'node:path';
import { loadYaml } from '../base/lazy.js';
import { nestedTooDeep } from '../syntax/format/simple-yaml.js';
import { ConfigError } from './errors.js';
import { validateConfig, type ConfigFileData, type KnownRules } from './validate.js';

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
      const pkg = parseJson(text, label);
      const section = typeof pkg === 'object' && pkg !== null ? (pkg as Record<string, unknown>).msglint : undefined;
      return section === undefined ? undefined : validateConfig(section, label, rules, 'msglint.');
    }
    const data = /\.json$/i.test(base) ? parseJson(text, label) : parseYaml(text, label);
    return validateConfig(data, label, rules);
  } catch (error) {
    if (error instanceof ConfigError && error.configPath === undefined) throw new ConfigError(error.message, configPath);
    throw error;
  }
}

function parseJson(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const { problem, offset } = jsonProblem(text, (error as Error).message.split('\n')[0]!);
    const { line, column } = lineAndColumn(text, offset);
    throw new ConfigError(`${label}: invalid JSON: ${problem} (line ${line}, column ${column})`);
  }
}

/**
 * What V8 says is wrong, without what it quotes. Its message either gives an
 * offset ("Expected ',' or '}' after property value in JSON at position 7")
 * or quotes the text instead ("Unexpected token 'r', "root:x:0:0:"... is not
 * valid JSON"); then the offset is found as the shortest prefix of the text
 * that fails before its end.
 */
function jsonProblem(text: string, message: string): { problem: string; offset: number } {
  const positioned = /^(.*?) in JSON at position (\d+)/.exec(message);
  if (positioned) {
    // Kept only when all it quotes is JSON's own punctuation ("Expected ':' after property name").
    const words = positioned[1]!;
    const problem = /^[A-Za-z -]*(?:'[{}[\]:,"]'[A-Za-z -]*)*$/.test(words) ? lowerFirst(words) : 'unexpected character';
    return { problem, offset: Number(positioned[2]) };
  }
  if (/^Unexpected end of JSON input/.test(message)) return { problem: 'unexpected end of input', offset: text.length };
  return { problem: 'unexpected character', offset: firstFailure(text) };
}

/** The offset JSON.parse stops at in `text`, which it rejects: prefixes up to it fail only by ending early. */
function firstFailure(text: string): number {
  const failsBeforeEnd = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (error) {
      const message = (error as Error).message;
      const at = /in JSON at position (\d+)/.exec(message);
      return !/^Unexpected end of JSON input/.test(message) && (at === null || Number(at[1]) < length);
    }
  };
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (failsBeforeEnd(mid + 1)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function lowerFirst(words: string): string {
  return words.charAt(0).toLowerCase() + words.slice(1);
}

function parseYaml(text: string, label: string): unknown {
  // The library reads nested nodes by recursion: far too deep, and V8 may
  // abort the process rather than throw (see nestedTooDeep).
  const deep = nestedTooDeep(text, 200);
  if (deep !== -1) {
    const { line, column } = lineAndColumn(text, deep);
    throw new ConfigError(`${label}: invalid YAML: nested more than 200 levels deep (line ${line}, column ${column})`);
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

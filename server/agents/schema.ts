// The agent settings of spec section 7: which keys exist and what values they
// take, for both places an agent is defined:
//
// - predefined agents, in the frontmatter's `agents:` mapping, where values
//   are YAML (already parsed to plain JavaScript);
// - temporary agents, `[^name]: [agent] key=value ...` metadata lines in the
//   body, where every value is a string.
//
// Each checker returns the setting's value in its JavaScript form, or what
// is wrong with it (and the value most likely meant, when one is clear); the
// rule agent-config words it.

import { closest } from '../base/closest.js';

/** Keys of a predefined (frontmatter) agent. */
export const FRONTMATTER_AGENT_KEYS = [
  'models',
  'context_window',
  'max_output_tokens',
  'reasoning',
  'use_temperature',
  'temperature',
  'system_prompt',
] as const;

/** Keys of a temporary agent's metadata line: no `system_prompt`, plus `default`. */
export const BODY_AGENT_KEYS = ['models', 'context_window', 'max_output_tokens', 'reasoning', 'use_temperature', 'temperature', 'default'] as const;

/**
 * Attributes any metadata line may carry (spec section 5): on an agent line
 * they are not agent settings, and not unknown keys either.
 */
export const METADATA_KEYS: ReadonlySet<string> = new Set(['history', 'summary', 'time']);

export type AgentKey = (typeof FRONTMATTER_AGENT_KEYS)[number] | 'default';

/** The settings of one agent, with only the valid values kept. */
export interface AgentSettings {
  models?: string[];
  contextWindow?: number;
  maxOutputTokens?: number;
  reasoning?: boolean;
  useTemperature?: boolean;
  temperature?: number;
  systemPrompt?: string;
  /** Temporary agents: `default=1`. */
  isDefault?: boolean;
}

export type SettingProblemKind =
  /** `models` names no model. */
  | 'no-model'
  /** `models` is an empty YAML list. */
  | 'empty-list'
  /** `models="a,,b"`: `meant` is the list without the empty names. */
  | 'empty-name'
  /** An item of `models` that is not a model name. */
  | 'not-a-name'
  /** `models` is neither a name nor a list. */
  | 'not-models'
  /** A YAML token count spelled as text (`128k`); `meant` is the number. */
  | 'count-spelling'
  | 'not-a-count'
  | 'not-a-boolean'
  | 'not-a-temperature'
  | 'not-text';

export interface SettingProblem {
  kind: SettingProblemKind;
  /** The value, or for a list the offending item, as given. */
  value: unknown;
  /** For a list value: the index of the offending item (the range narrows to it). */
  item?: number;
  /** The value (or the item) most likely meant. */
  meant?: string | number | boolean;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: SettingProblem };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const bad = (kind: SettingProblemKind, value: unknown, extra: Omit<SettingProblem, 'kind' | 'value'> = {}): Checked<never> => ({
  ok: false,
  problem: { kind, value, ...extra },
});

/** Words people write for a boolean, and the boolean they mean. */
const BOOLEAN_WORDS: Record<string, boolean> = { yes: true, no: false, on: true, off: false, y: true, n: false, '1': true, '0': false };

// ---- frontmatter (YAML values) ----

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function yamlModels(value: unknown): Checked<string[]> {
  if (typeof value === 'string') {
    return value.trim() === '' ? bad('no-model', value) : ok([value]);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return bad('empty-list', value);
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (typeof v !== 'string' || v.trim() === '') {
        return bad('not-a-name', v, { item: i, meant: typeof v === 'number' ? v : undefined });
      }
    }
    return ok(value as string[]);
  }
  return bad('not-models', value);
}

function yamlPositiveInteger(key: string, value: unknown): Checked<number> {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return ok(value);
  if (typeof value === 'string') {
    // `128k`, `128_000`, `"128000"`: the number is clear, its spelling is not YAML's.
    const m = /^\s*(\d[\d_,]*)\s*([kKmM]?)\s*$/.exec(value);
    if (m) {
      const n = Number(m[1]!.replace(/[_,]/g, '')) * (m[2] === '' ? 1 : /k/i.test(m[2]!) ? 1000 : 1_000_000);
      if (Number.isInteger(n) && n > 0) {
        return bad('count-spelling', value, { meant: n });
      }
    }
  }
  return bad('not-a-count', value);
}

function yamlBoolean(key: string, value: unknown): Checked<boolean> {
  if (typeof value === 'boolean') return ok(value);
  const word = typeof value === 'string' || typeof value === 'number' ? String(value).toLowerCase() : undefined;
  const meant = word !== undefined ? BOOLEAN_WORDS[word] : undefined;
  return bad('not-a-boolean', value, { meant });
}

function yamlTemperature(value: unknown): Checked<number> {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return value >= 0 && value <= 2 ? ok(value) : bad('not-a-temperature', value);
  }
  const n = typeof value === 'string' && NUMBER.test(value.trim()) ? Number(value) : NaN;
  return bad('not-a-temperature', value, { meant: n >= 0 && n <= 2 ? n : undefined });
}

function yamlString(key: string, value: unknown): Checked<string> {
  if (typeof value === 'string') return ok(value);
  return bad('not-text', value);
}

/** Checks one frontmatter agent setting; `undefined` for an unknown key. */
export function checkYamlSetting(key: string, value: unknown): Checked<unknown> | undefined {
  switch (key) {
    case 'models':
      return yamlModels(value);
    case 'context_window':
    case 'max_output_tokens':
      return yamlPositiveInteger(key, value);
    case 'reasoning':
    case 'use_temperature':
      return yamlBoolean(key, value);
    case 'temperature':
      return yamlTemperature(value);
    case 'system_prompt':
      return yamlString(key, value);
    default:
      return undefined;
  }
}

// ---- temporary agents (attribute strings) ----

const INTEGER = /^[1-9]\d*$/;
const ATTRIBUTE_BOOLEANS: Record<string, boolean> = { '1': true, '0': false, true: true, false: false, True: true, False: false, TRUE: true, FALSE: false };

function attributeModels(value: string): Checked<string[]> {
  const items = value.split(',').map((s) => s.trim());
  if (items.every((s) => s === '')) return bad('no-model', value);
  const empty = items.findIndex((s) => s === '');
  if (empty !== -1) {
    const cleaned = items.filter((s) => s !== '').join(',');
    return bad('empty-name', value, { meant: cleaned });
  }
  return ok(items);
}

function attributeBoolean(key: string, value: string): Checked<boolean> {
  const b = ATTRIBUTE_BOOLEANS[value];
  if (b !== undefined) return ok(b);
  const meant = BOOLEAN_WORDS[value.toLowerCase()];
  return bad('not-a-boolean', value, { meant });
}

/** `default` is read by the parser as `1` or `true` only (document.defaultAgentAt). */
function attributeDefault(value: string): Checked<boolean> {
  if (value === '1' || value === 'true') return ok(true);
  if (value === '0' || value === 'false') return ok(false);
  const lower = value.toLowerCase();
  const meant = lower === 'true' ? true : lower === 'false' ? false : BOOLEAN_WORDS[lower];
  return bad('not-a-boolean', value, { meant });
}

/** Checks one temporary agent attribute; `undefined` for a key that is not an agent setting. */
export function checkAttributeSetting(key: string, value: string): Checked<unknown> | undefined {
  switch (key) {
    case 'models':
      return attributeModels(value);
    case 'context_window':
    case 'max_output_tokens': {
      if (INTEGER.test(value)) return ok(Number(value));
      const n = /^\d+$/.test(value) ? Number(value) : NaN;
      return bad('not-a-count', value, { meant: n > 0 ? n : undefined });
    }
    case 'reasoning':
    case 'use_temperature':
      return attributeBoolean(key, value);
    case 'default':
      return attributeDefault(value);
    case 'temperature': {
      if (!NUMBER.test(value)) return bad('not-a-temperature', value);
      const n = Number(value);
      return n >= 0 && n <= 2 ? ok(n) : bad('not-a-temperature', value);
    }
    default:
      return undefined;
  }
}

/** Stores a valid setting under its JavaScript name. */
export function assignSetting(settings: AgentSettings, key: string, value: unknown): void {
  switch (key) {
    case 'models':
      settings.models = value as string[];
      break;
    case 'context_window':
      settings.contextWindow = value as number;
      break;
    case 'max_output_tokens':
      settings.maxOutputTokens = value as number;
      break;
    case 'reasoning':
      settings.reasoning = value as boolean;
      break;
    case 'use_temperature':
      settings.useTemperature = value as boolean;
      break;
    case 'temperature':
      settings.temperature = value as number;
      break;
    case 'system_prompt':
      settings.systemPrompt = value as string;
      break;
    case 'default':
      settings.isDefault = value as boolean;
      break;
  }
}

/** Spellings of agent keys seen in other tools' configuration, by normalized form. */
const SYNONYMS: Record<string, string> = {
  model: 'models',
  model_name: 'models',
  model_names: 'models',
  context: 'context_window',
  context_length: 'context_window',
  context_size: 'context_window',
  max_context: 'context_window',
  max_context_tokens: 'context_window',
  max_tokens: 'max_output_tokens',
  max_completion_tokens: 'max_output_tokens',
  output_tokens: 'max_output_tokens',
  max_output: 'max_output_tokens',
  system: 'system_prompt',
  prompt: 'system_prompt',
  instructions: 'system_prompt',
  system_message: 'system_prompt',
  temp: 'temperature',
  use_temp: 'use_temperature',
  thinking: 'reasoning',
};

/** `maxTokens`, `max-tokens`, `Max_Tokens` -> `max_tokens`. */
export function normalizeKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
}

/**
 * The known key an unknown one most likely means: the same key in another
 * spelling (`contextWindow`), a common synonym (`max_tokens`), or a typo.
 */
export function likelyKey(key: string, known: readonly string[]): string | undefined {
  const n = normalizeKey(key);
  if (known.includes(n)) return n;
  const synonym = SYNONYMS[n];
  if (synonym && known.includes(synonym)) return synonym;
  return closest(n, known);
}

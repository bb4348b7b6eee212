// The agent settings of spec section 7: which keys exist and what values they
// take, for both places an agent is defined:
//
// - predefined agents, in the frontmatter's `agents:` mapping, where values
//   are YAML (already parsed to plain JavaScript);
// - temporary agents, `[^name]: [agent] key=value ...` metadata lines in the
//   body, where every value is a string.
//
// Each checker returns the setting's value in its JavaScript form, or a
// problem (message, and a replacement text when one is obviously meant).

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

export interface SettingProblem {
  message: string;
  /** For a list value: the index of the offending item (the range narrows to it). */
  item?: number;
  /** A replacement for the value (or the item) that is most likely meant. */
  replacement?: { text: string; desc: string };
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: SettingProblem };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const bad = (message: string, extra: Omit<SettingProblem, 'message'> = {}): Checked<never> => ({ ok: false, problem: { message, ...extra } });

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the text \`${value.length > 40 ? `${value.slice(0, 37)}...` : value}\``;
  return `\`${String(value)}\``;
}

/** Words people write for a boolean, and the boolean they mean. */
const BOOLEAN_WORDS: Record<string, boolean> = { yes: true, no: false, on: true, off: false, y: true, n: false, '1': true, '0': false };

// ---- frontmatter (YAML values) ----

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function yamlModels(value: unknown): Checked<string[]> {
  if (typeof value === 'string') {
    return value.trim() === '' ? bad('`models` is empty; name at least one model.') : ok([value]);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return bad('`models` is an empty list; name at least one model.');
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (typeof v !== 'string' || v.trim() === '') {
        return bad(`Each model in \`models\` is a model name, not ${describe(v)}.`, {
          item: i,
          replacement: typeof v === 'number' ? { text: `"${v}"`, desc: `Quote \`${v}\` as a name` } : undefined,
        });
      }
    }
    return ok(value as string[]);
  }
  return bad(`\`models\` is a model name or a list of model names, not ${describe(value)}.`);
}

function yamlPositiveInteger(key: string, value: unknown): Checked<number> {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return ok(value);
  if (typeof value === 'string') {
    // `128k`, `128_000`, `"128000"`: the number is clear, its spelling is not YAML's.
    const m = /^\s*(\d[\d_,]*)\s*([kKmM]?)\s*$/.exec(value);
    if (m) {
      const n = Number(m[1]!.replace(/[_,]/g, '')) * (m[2] === '' ? 1 : /k/i.test(m[2]!) ? 1000 : 1_000_000);
      if (Number.isInteger(n) && n > 0) {
        return bad(`\`${key}\` is a whole number of tokens, written as a YAML number, not ${describe(value)}.`, {
          replacement: { text: String(n), desc: `Write \`${key}: ${n}\`` },
        });
      }
    }
  }
  return bad(`\`${key}\` is a positive whole number of tokens, not ${describe(value)}.`);
}

function yamlBoolean(key: string, value: unknown): Checked<boolean> {
  if (typeof value === 'boolean') return ok(value);
  const word = typeof value === 'string' || typeof value === 'number' ? String(value).toLowerCase() : undefined;
  const meant = word !== undefined ? BOOLEAN_WORDS[word] : undefined;
  return bad(`\`${key}\` is \`true\` or \`false\`, not ${describe(value)}.`, {
    replacement: meant !== undefined ? { text: String(meant), desc: `Write \`${key}: ${meant}\`` } : undefined,
  });
}

function yamlTemperature(value: unknown): Checked<number> {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return value >= 0 && value <= 2 ? ok(value) : bad(`\`temperature\` is a number from 0 to 2, not \`${value}\`.`);
  }
  const n = typeof value === 'string' && NUMBER.test(value.trim()) ? Number(value) : NaN;
  return bad(`\`temperature\` is a number from 0 to 2, not ${describe(value)}.`, {
    replacement: n >= 0 && n <= 2 ? { text: String(n), desc: `Write \`temperature: ${n}\`` } : undefined,
  });
}

function yamlString(key: string, value: unknown): Checked<string> {
  if (typeof value === 'string') return ok(value);
  return bad(`\`${key}\` is text, not ${describe(value)}.`);
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
  if (items.every((s) => s === '')) return bad('`models` is empty; name at least one model (several are separated by commas).');
  const empty = items.findIndex((s) => s === '');
  if (empty !== -1) {
    const cleaned = items.filter((s) => s !== '').join(',');
    return bad('`models` has an empty name between commas.', { replacement: { text: `"${cleaned}"`, desc: `Write \`models="${cleaned}"\`` } });
  }
  return ok(items);
}

function attributeBoolean(key: string, value: string): Checked<boolean> {
  const b = ATTRIBUTE_BOOLEANS[value];
  if (b !== undefined) return ok(b);
  const meant = BOOLEAN_WORDS[value.toLowerCase()];
  return bad(`\`${key}\` is 1, 0, true or false, not \`${value}\`.`, {
    replacement: meant !== undefined ? { text: meant ? '1' : '0', desc: `Write \`${key}=${meant ? 1 : 0}\`` } : undefined,
  });
}

/** `default` is read by the parser as `1` or `true` only (document.defaultAgentAt). */
function attributeDefault(value: string): Checked<boolean> {
  if (value === '1' || value === 'true') return ok(true);
  if (value === '0' || value === 'false') return ok(false);
  const lower = value.toLowerCase();
  const meant = lower === 'true' ? true : lower === 'false' ? false : BOOLEAN_WORDS[lower];
  return bad(`\`default\` is 1 (make this the default agent) or 0, not \`${value}\`.`, {
    replacement: meant !== undefined ? { text: meant ? '1' : '0', desc: `Write \`default=${meant ? 1 : 0}\`` } : undefined,
  });
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
      return bad(`\`${key}\` is a positive whole number of tokens, not \`${value}\`.`, {
        replacement: n > 0 ? { text: String(n), desc: `Write \`${key}=${n}\`` } : undefined,
      });
    }
    case 'reasoning':
    case 'use_temperature':
      return attributeBoolean(key, value);
    case 'default':
      return attributeDefault(value);
    case 'temperature': {
      if (!NUMBER.test(value)) return bad(`\`temperature\` is a number from 0 to 2, not \`${value}\`.`);
      const n = Number(value);
      return n >= 0 && n <= 2 ? ok(n) : bad(`\`temperature\` is a number from 0 to 2, not \`${value}\`.`);
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

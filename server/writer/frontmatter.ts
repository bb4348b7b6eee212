// The start of a new message file: YAML frontmatter with the agents (spec
// section 7). Strings are written as YAML double-quoted scalars, which are
// JSON strings, unless they are plain words: any text (line breaks, quotes,
// `: `, `#`, leading blanks) reads back exactly.

/** An agent of the frontmatter, with the settings of spec section 7. */
export interface AgentSpec {
  models?: string | string[];
  context_window?: number;
  max_output_tokens?: number;
  reasoning?: boolean;
  use_temperature?: boolean;
  temperature?: number;
  system_prompt?: string;
}

export interface StartOptions {
  /** The agents by name (each name one id segment, not a reserved type name). */
  agents?: Record<string, AgentSpec>;
  default_agent?: string;
  /** Other top-level keys (title, tags, …): strings. */
  extra?: Record<string, string>;
}

const RESERVED = new Set(['tool', 'agent', 'markdown', 'code', 'raw']);

/**
 * An agent name made of `text` (a model name, say): one id segment, the
 * characters outside `A-Z a-z 0-9 _ -` as `-`, never a reserved type name;
 * `fallback` when nothing is left.
 */
export function agentName(text: string, fallback = 'assistant'): string {
  let name = text.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  if (name === '') name = fallback;
  if (RESERVED.has(name)) name = `${name}-agent`;
  return name;
}

function scalar(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  // A plain word that YAML reads as the same string (not a number, boolean or null).
  if (/^[A-Za-z_][A-Za-z0-9_.\-/ ]*$/.test(value) && !/ $/.test(value) && !/^(?:true|false|yes|no|on|off|null|y|n)$/i.test(value)) return value;
  return JSON.stringify(value);
}

/** The frontmatter of a new message file (with its closing `---` and a blank line), or '' when there is nothing to say. */
export function startFile(options: StartOptions = {}): string {
  const lines: string[] = [];
  const agents = Object.entries(options.agents ?? {});
  if (agents.length) {
    lines.push('agents:');
    for (const [name, spec] of agents) {
      lines.push(`  ${agentName(name)}:`);
      for (const [key, value] of Object.entries(spec)) {
        if (value === undefined) continue;
        if (Array.isArray(value)) lines.push(`    ${key}: [${value.map((v) => JSON.stringify(v)).join(', ')}]`);
        else lines.push(`    ${key}: ${scalar(value as string | number | boolean)}`);
      }
      if (Object.values(spec).every((v) => v === undefined)) lines[lines.length - 1] += ' {}';
    }
  }
  if (options.default_agent !== undefined) lines.push(`default_agent: ${scalar(agentName(options.default_agent))}`);
  for (const [key, value] of Object.entries(options.extra ?? {})) if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) lines.push(`${key}: ${scalar(value)}`);
  return lines.length ? `---\n${lines.join('\n')}\n---\n\n` : '';
}

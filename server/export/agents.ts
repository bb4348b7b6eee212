// `msglint agents`: every agent of a file (predefined in the frontmatter,
// temporary in the body, or named by the configuration), its models and
// settings, where it is the default agent and which cells it answered.
//
// Decisions: settings are the valid ones, under the file's own key names
// (snake_case), in the order of FRONTMATTER_AGENT_KEYS; "where it is the
// default" is a list of 1-based line ranges (the frontmatter's default_agent
// from line 1, a `default=1` temporary agent from its declaration line, each
// up to the line before the next change); lines are 1-based.

import { visibleControls, visibleLine } from '../base/terminal.js';
import { agentInfos } from '../agents/agents.js';
import type { AgentSettings } from '../agents/schema.js';
import type { AgentDefinition, MessageDocument } from '../syntax/document.js';

export interface AgentListingEntry {
  name: string;
  kind: 'predefined' | 'temporary' | 'config';
  /** The line of the definition (the name in the frontmatter, the `[^name]: [agent]` line); null for config agents. */
  line: number | null;
  models: string[];
  settings: {
    context_window?: number;
    max_output_tokens?: number;
    reasoning?: boolean;
    use_temperature?: boolean;
    temperature?: number;
    system_prompt?: string;
  };
  /** Where it is the default agent: line ranges, inclusive. */
  default: { fromLine: number; toLine: number }[];
  /** The agent replies it wrote. */
  answered: { id: string; line: number }[];
}

export interface AgentListing {
  file?: string;
  agents: AgentListingEntry[];
}

const KIND = { frontmatter: 'predefined', body: 'temporary', config: 'config' } as const;

function settingsOf(s: AgentSettings): AgentListingEntry['settings'] {
  const out: AgentListingEntry['settings'] = {};
  if (s.contextWindow !== undefined) out.context_window = s.contextWindow;
  if (s.maxOutputTokens !== undefined) out.max_output_tokens = s.maxOutputTokens;
  if (s.reasoning !== undefined) out.reasoning = s.reasoning;
  if (s.useTemperature !== undefined) out.use_temperature = s.useTemperature;
  if (s.temperature !== undefined) out.temperature = s.temperature;
  if (s.systemPrompt !== undefined) out.system_prompt = s.systemPrompt;
  return out;
}

export function listAgents(doc: MessageDocument, file?: string): AgentListing {
  const infos = agentInfos(doc);
  const line = (offset: number) => doc.lines.lineOf(offset) + 1;
  const entries = new Map<AgentDefinition, AgentListingEntry>();
  for (const def of doc.agents) {
    const info = infos.find((i) => i.def === def);
    entries.set(def, {
      name: def.name,
      kind: KIND[def.source],
      line: def.source === 'config' ? null : line(def.at[0]),
      models: info?.settings.models ?? (def.source === 'config' ? [] : def.source === 'body' ? [def.name] : []),
      settings: info ? settingsOf(info.settings) : {},
      default: [],
      answered: [],
    });
  }

  // The default agent changes at the start and at each `default=1` declaration.
  const points = [0, ...doc.agents.filter((a) => a.source === 'body').map((a) => a.from)].sort((a, b) => a - b);
  const lastLine = line(Math.max(0, doc.text.length - (doc.text.endsWith('\n') ? 1 : 0)));
  points.forEach((p, i) => {
    if (i > 0 && p === points[i - 1]) return;
    const name = doc.defaultAgentAt(p);
    const def = name !== undefined ? doc.agentAt(name, p) : undefined;
    const entry = def && entries.get(def);
    if (!entry) return;
    const next = points.slice(i + 1).find((q) => q > p);
    const from = line(p);
    const to = next !== undefined ? line(next) - 1 : lastLine;
    const prev = entry.default[entry.default.length - 1];
    if (prev && prev.toLine >= from - 1) prev.toLine = Math.max(prev.toLine, to);
    else if (to >= from) entry.default.push({ fromLine: from, toLine: to });
  });

  for (const cell of doc.cells) {
    if (doc.kindOf(cell) !== 'agent-reply') continue;
    const type = doc.typeOf(cell);
    if (type === undefined) continue;
    const at = doc.offsetOf(cell);
    const def = doc.agentAt(type, at);
    const entry = def && entries.get(def);
    if (entry) entry.answered.push({ id: cell.id ?? '', line: line(at) });
  }
  const listing: AgentListing = { agents: [...entries.values()] };
  if (file !== undefined) listing.file = file;
  return listing;
}

/** The listing as text for a terminal. */
export function agentsText(listing: AgentListing, style: { bold(s: string): string; dim(s: string): string } = { bold: (s) => s, dim: (s) => s }): string {
  if (!listing.agents.length) return `No agents${listing.file !== undefined ? ` in ${visibleLine(listing.file)}` : ''}.\n`;
  const blocks = listing.agents.map((a) => {
    const rows: [string, string][] = [['models', a.models.length ? a.models.join(', ') : '-']];
    for (const [k, v] of Object.entries(a.settings)) rows.push([k, String(v)]);
    rows.push(['default', a.default.length ? a.default.map((r) => (r.fromLine === r.toLine ? `line ${r.fromLine}` : `lines ${r.fromLine}-${r.toLine}`)).join(', ') : 'no']);
    rows.push(['answered', a.answered.length ? a.answered.map((c) => `${c.id} (line ${c.line})`).join(', ') : 'none']);
    const width = Math.max(...rows.map(([k]) => k.length)) + 1;
    const head = `${style.bold(visibleLine(a.name))} ${style.dim(`(${a.kind}${a.line !== null ? `, line ${a.line}` : ''})`)}`;
    // Names, models and settings come from the file: its control characters must not reach the terminal.
    const body = rows.map(([k, v]) => `  ${visibleLine(`${k}:`).padEnd(width)} ${visibleControls(v).split('\n').join(`\n  ${' '.repeat(width)} `)}`);
    return [head, ...body].join('\n');
  });
  return `${blocks.join('\n\n')}\n`;
}

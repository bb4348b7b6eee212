import { defineRule } from '../server/engine/rule-kit.js';
import type { ReportDescriptor } from '../server/engine/types.js';
import { agentInfos, type AgentInfo } from '../server/agents/agents.js';
import { BODY_AGENT_KEYS, FRONTMATTER_AGENT_KEYS, likelyKey, METADATA_KEYS, type SettingProblem } from '../server/agents/schema.js';
import { isMap } from '../server/syntax/document.js';

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the text \`${value.length > 40 ? `${value.slice(0, 37)}...` : value}\``;
  return `\`${String(value)}\``;
}

/**
 * The words for a setting's problem, and the replacement for the value (or
 * the item) most likely meant. `body`: on a temporary agent's metadata line,
 * where values are attribute strings, not YAML.
 */
function describeProblem(key: string, p: SettingProblem, body: boolean): { message: string; replacement?: { text: string; desc: string } } {
  // An attribute value is shown as written; a YAML value by what it is.
  const given = body ? `\`${String(p.value)}\`` : describe(p.value);
  const meant = p.meant;
  let replacement: { text: string; desc: string } | undefined;
  if (meant !== undefined) {
    const text = body && typeof meant === 'boolean' ? (meant ? '1' : '0') : String(meant);
    replacement = { text, desc: `Write \`${key}${body ? '=' : ': '}${text}\`` };
  }
  switch (p.kind) {
    case 'no-model':
      return { message: body ? '`models` is empty; name at least one model (several are separated by commas).' : '`models` is empty; name at least one model.' };
    case 'empty-list':
      return { message: '`models` is an empty list; name at least one model.' };
    case 'empty-name':
      return { message: '`models` has an empty name between commas.', replacement: { text: `"${meant}"`, desc: `Write \`models="${meant}"\`` } };
    case 'not-a-name':
      return {
        message: `Each model in \`models\` is a model name, not ${describe(p.value)}.`,
        replacement: meant !== undefined ? { text: `"${meant}"`, desc: `Quote \`${meant}\` as a name` } : undefined,
      };
    case 'not-models':
      return { message: `\`models\` is a model name or a list of model names, not ${describe(p.value)}.` };
    case 'count-spelling':
      return { message: `\`${key}\` is a whole number of tokens, written as a YAML number, not ${given}.`, replacement };
    case 'not-a-count':
      return { message: `\`${key}\` is a positive whole number of tokens, not ${given}.`, replacement };
    case 'not-a-boolean':
      if (key === 'default') return { message: `\`default\` is 1 (make this the default agent) or 0, not ${given}.`, replacement };
      return { message: `\`${key}\` is ${body ? '1, 0, true or false' : '`true` or `false`'}, not ${given}.`, replacement };
    case 'not-a-temperature':
      return { message: `\`temperature\` is a number from 0 to 2, not ${given}.`, replacement };
    case 'not-text':
      return { message: `\`${key}\` is text, not ${given}.` };
  }
}

function checkEntries(info: AgentInfo, report: (d: ReportDescriptor) => void): void {
  const body = info.def.source === 'body';
  const known: readonly string[] = body ? BODY_AGENT_KEYS : FRONTMATTER_AGENT_KEYS;
  const agent = `\`${info.def.name}\``;
  for (const e of info.entries) {
    if (e.repeated) continue; // duplicate-attribute (body) or a YAML error (frontmatter)
    if (e.checked === undefined) {
      // system_prompt on a temporary agent is agent-system-prompt's.
      if (body && (e.key === 'system_prompt' || METADATA_KEYS.has(e.key))) continue;
      const meant = likelyKey(e.key, known);
      // On a metadata line, other attributes are allowed (spec section 5): only a likely typo is reported.
      if (body && !meant) continue;
      report({
        at: e.keyAt,
        // A warning, whatever the rule's severity: an unknown key is likely harmless.
        severity: 1,
        message: meant
          ? `\`${e.key}\` is not an agent setting; did you mean \`${meant}\`?`
          : `\`${e.key}\` is not an agent setting (${known.map((k) => `\`${k}\``).join(', ')}).`,
        suggestions: meant ? [{ desc: `Change \`${e.key}\` to \`${meant}\``, fix: { range: e.keyAt, text: meant } }] : undefined,
      });
      continue;
    }
    if (e.checked.ok) continue;
    const p = e.checked.problem;
    const at = (p.item !== undefined && e.itemsAt?.[p.item]) || e.valueAt;
    const { message, replacement } = describeProblem(e.key, p, body);
    report({
      at: at[1] > at[0] ? at : e.at,
      message: `Agent ${agent}: ${message}`,
      suggestions: replacement ? [{ desc: replacement.desc, fix: { range: at, text: replacement.text } }] : undefined,
    });
  }
  const s = info.settings;
  if (s.maxOutputTokens !== undefined && s.contextWindow !== undefined && s.maxOutputTokens > s.contextWindow) {
    const max = info.entries.find((e) => e.key === 'max_output_tokens' && !e.repeated)!;
    const cw = info.entries.find((e) => e.key === 'context_window' && !e.repeated)!;
    report({
      at: max.valueAt,
      message: `Agent ${agent}: \`max_output_tokens\` (${s.maxOutputTokens}) is above \`context_window\` (${s.contextWindow}); the output is part of the context window.`,
      related: [{ at: cw.at, message: 'The context window' }],
    });
  }
}

export default defineRule(
  {
    id: 'agent-config',
    group: 'agents',
    severity: 'error',
    fixable: 'suggestion',
    description: 'An agent setting of the wrong type or range, `max_output_tokens` above `context_window`, or an unknown agent key (a warning).',
  },
  ({ doc, report }) => {
    const agentsEntry = doc.frontmatter?.agentsEntry;
    if (agentsEntry && agentsEntry.value !== null && !isMap(agentsEntry.node)) {
      const v: [number, number] = [agentsEntry.valueSpan.start, agentsEntry.valueSpan.end];
      report({ at: v[1] > v[0] ? v : [agentsEntry.keySpan.start, agentsEntry.keySpan.end], message: '`agents` is a mapping of agent names to their settings (`coder:` then indented `models: …` lines).' });
    }
    for (const info of agentInfos(doc)) {
      if (info.notAMapping) {
        report({
          at: info.valueAt && info.valueAt[1] > info.valueAt[0] ? info.valueAt : info.def.at,
          message: `The settings of agent \`${info.def.name}\` are a mapping (indented \`key: value\` lines such as \`models: [gpt-4o]\`).`,
        });
        continue;
      }
      checkEntries(info, report);
    }
  },
);

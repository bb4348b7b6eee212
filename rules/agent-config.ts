import { defineRule } from '../server/engine/rule-kit.js';
import type { ReportDescriptor } from '../server/engine/types.js';
import { agentInfos, type AgentInfo } from '../server/agents/agents.js';
import { BODY_AGENT_KEYS, FRONTMATTER_AGENT_KEYS, likelyKey, METADATA_KEYS } from '../server/agents/schema.js';
import { isMap } from '../server/syntax/frontmatter.js';

// An unknown key is reported with severity 1 (a warning), the rest at the rule's severity.
type Descriptor = ReportDescriptor;

function checkEntries(info: AgentInfo, report: (d: Descriptor) => void): void {
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
    const at = p.item !== undefined && e.itemsAt?.[p.item] ? e.itemsAt[p.item]! : e.valueAt;
    report({
      at: at[1] > at[0] ? at : e.at,
      message: `Agent ${agent}: ${p.message}`,
      suggestions: p.replacement ? [{ desc: p.replacement.desc, fix: { range: at, text: p.replacement.text } }] : undefined,
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

import { defineRule } from '../server/engine/rule-kit.js';
import { agentInfos } from '../server/agents/agents.js';

export default defineRule(
  {
    id: 'agent-temperature-ignored',
    group: 'agents',
    severity: 'warning',
    fixable: null,
    description: '`temperature` set while `use_temperature` is false.',
  },
  ({ doc, report }) => {
    for (const info of agentInfos(doc)) {
      if (info.settings.useTemperature !== false || info.settings.temperature === undefined) continue;
      const temperature = info.entries.find((e) => e.key === 'temperature' && !e.repeated)!;
      const use = info.entries.find((e) => e.key === 'use_temperature' && !e.repeated)!;
      report({
        at: temperature.at,
        message: `Agent \`${info.def.name}\` has \`use_temperature\` false, so its \`temperature\` is never sent to the model.`,
        related: [{ at: use.at, message: '`use_temperature` is false here' }],
        tags: [1],
      });
    }
  },
);

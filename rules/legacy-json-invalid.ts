import { defineToolProblemRule } from '../server/engine/rule-kit.js';
import type { LegacyProblemKind } from '../server/tool-calls/index.js';

function message(kind: LegacyProblemKind, detail: string): string {
  switch (kind) {
    case 'json':
      return `Not valid JSON for a legacy tool call: ${detail}`;
    case 'not-an-object':
      return 'A legacy tool call is one JSON object.';
    case 'repeated-key':
      return `\`${detail}\` appears twice.`;
    case 'server-name':
      return '`server_name` is a non-empty string (leave it out for `local`).';
    case 'tool-name':
      return '`tool_name` is a non-empty string.';
    case 'arguments':
      return '`arguments` is a JSON object.';
    case 'unknown-key':
      return `\`${detail}\` is not part of a legacy tool call: it has \`server_name\`, \`tool_name\` and \`arguments\`.`;
    case 'no-tool-name':
      return 'The legacy tool call has no `tool_name`.';
  }
}

export default defineToolProblemRule(
  {
    id: 'legacy-json-invalid',
    group: 'tool-calls',
    severity: 'error',
    fixable: null,
    description: 'A `<tool>` whose body starts with `{` but is not a valid JSON object of the legacy shape.',
  },
  (p) => ({ message: message(p.kind, p.detail ?? '') }),
);

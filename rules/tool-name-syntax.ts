import { defineCellRule } from '../server/engine/rule-kit.js';
import { TOOL_NAME_PATTERN, toolNameOf } from '../server/tool-calls/names.js';

export default defineCellRule(
  {
    id: 'tool-name-syntax',
    group: 'tool-calls',
    severity: 'warning',
    fixable: null,
    description: 'A tool name (the `<tool_name>`, or the metadata `name`) that does not match `^[a-zA-Z0-9_-]{1,64}$`: OpenAI and Anthropic reject it.',
  },
  (cell, input, { report }) => {
    if (input.kind !== 'tool-call' || input.type !== 'tool') return;
    // The call's own name, else (no readable call) the metadata name; a
    // metadata name that differs from the call's is tool-name-mismatch's.
    const tool = toolNameOf(cell, input.metadata, (span, of) => input.abs(span, of));
    if (!tool || TOOL_NAME_PATTERN.test(tool.name)) return;
    report({
      at: tool.at,
      message: `The tool name \`${tool.name}\` does not match \`${TOOL_NAME_PATTERN.source}\`, the pattern OpenAI and Anthropic require of tool names: the call cannot be sent to them as it is.`,
    });
  },
);

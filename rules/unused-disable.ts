import { defineRule } from '../server/engine/rule-kit.js';

// Reported by the engine with --report-unused-disable-directives.
export default defineRule(
  {
    id: 'unused-disable',
    group: 'directives',
    severity: 'warning',
    fixable: null,
    description: 'A msglint disable comment that suppressed nothing (with --report-unused-disable-directives).',
  },
  () => {},
);

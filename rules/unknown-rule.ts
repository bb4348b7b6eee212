import { defineRule } from '../server/engine/rule-kit.js';

// Reported by the engine while it reads disable comments.
export default defineRule(
  {
    id: 'unknown-rule',
    group: 'directives',
    severity: 'warning',
    fixable: null,
    description: 'A msglint disable/enable comment names a rule that does not exist.',
  },
  () => {},
);

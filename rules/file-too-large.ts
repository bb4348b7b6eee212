import { defineRule } from '../server/engine/rule-kit.js';

// Reported by the engine before it parses a file (server/engine/limits.ts).
export default defineRule(
  {
    id: 'file-too-large',
    group: 'file',
    severity: 'error',
    fixable: null,
    description: 'A file too large to lint (more than 64 MiB of text or 1,000,000 cell markers): reported, not linted.',
  },
  () => {},
);

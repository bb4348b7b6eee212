import { defineRule } from '../server/engine/rule-kit.js';

// Reported by the engine from what decoding the file's bytes found (server/base/decode.ts).
export default defineRule(
  {
    id: 'file-encoding',
    group: 'file',
    severity: 'error',
    fixable: null,
    description: 'A file that is not text msglint can read whole: a binary file, or bytes that are not valid UTF-8 (or UTF-16 after its byte order mark).',
  },
  () => {},
);

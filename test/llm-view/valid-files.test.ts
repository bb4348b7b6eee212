// False positives lose users: valid files get no diagnostics at all, and none
// from the code execution, agents, sections and LLM view rules in particular.
import { describe, expect, it } from 'vitest';
import { check } from '../helpers.js';
import { OWN_RULES, VALID_FILES } from './examples.js';

describe('valid files', () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`${what}: no diagnostics from any rule`, () => {
      expect(check(text, { fileName, reportUnusedDisableDirectives: true }).map((f) => `${f.ruleId}: ${f.message}`)).toEqual([]);
    });
    it(`${what}: none with CRLF line breaks from these rules`, () => {
      const crlf = text.replace(/\n/g, '\r\n');
      expect(check(crlf, { fileName }).filter((f) => (OWN_RULES as readonly string[]).includes(f.ruleId))).toEqual([]);
    });
  }
});

// Golden files: each example of the repository exported to every format.
// The files in test/fixtures/export were checked by hand against the shapes
// of seeds 001 (context-json, console), 002 (code as tool) and 004 (openai,
// anthropic, vercel-legacy); the vercel ones are `ai`'s ModelMessage, which
// sdk.test.ts checks with the package. To regenerate after a deliberate change:
//   UPDATE_GOLDENS=1 npx vitest run --config test/vitest.config.ts test/export/golden.test.ts
// and review the diff.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FORMATS, exportExample, goldenCases, goldenPath } from './helpers.js';

const update = process.env.UPDATE_GOLDENS === '1';

describe('golden exports of the examples', () => {
  for (const [name, example, options] of goldenCases()) {
    for (const format of FORMATS) {
      it(`${name} --to ${format}`, () => {
        const actual = exportExample(example, format, options);
        const file = goldenPath(name, format);
        if (update) writeFileSync(file, actual);
        expect(existsSync(file), `${file} is missing (UPDATE_GOLDENS=1 writes it)`).toBe(true);
        expect(actual).toBe(readFileSync(file, 'utf8'));
      });
    }
  }
});

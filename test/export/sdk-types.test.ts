// The openai and anthropic exports are what those APIs accept: every golden
// file is written into a .ts file typed with the official SDKs' own types
// (`openai`'s ChatCompletionMessageParam[], `@anthropic-ai/sdk`'s
// MessageParam[] and the request's `system`), and `tsc --noEmit` checks them.
// The vercel shape (legacy `function_call` and `function` role) is checked
// against ChatCompletionMessageParam too, which still describes it. A file
// with a deliberately wrong message proves the check bites.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, goldenCases, goldenPath } from './helpers.js';

const dir = mkdtempSync(path.join(ROOT, 'test/export/.sdk-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = [
  "import type OpenAI from 'openai';",
  "import type Anthropic from '@anthropic-ai/sdk';",
  'type OpenAIMessages = OpenAI.Chat.Completions.ChatCompletionMessageParam[];',
  "type AnthropicRequest = Pick<Anthropic.MessageCreateParamsNonStreaming, 'system' | 'messages'>;",
  "import type { ModelMessage } from 'ai';",
  'type VercelRequest = { system?: string; messages: ModelMessage[] };',
  '',
].join('\n');

function typedFile(name: string, body: string): string {
  const file = path.join(dir, `${name.replace(/[^A-Za-z0-9_-]/g, '_')}.ts`);
  writeFileSync(file, `${HEADER}${body}\nexport {};\n`);
  return path.basename(file);
}

describe('exports type-check against the SDKs', () => {
  const files: string[] = [];
  for (const [name] of goldenCases()) {
    const openai = readFileSync(goldenPath(name, 'openai'), 'utf8').trim();
    const anthropic = readFileSync(goldenPath(name, 'anthropic'), 'utf8').trim();
    const vercel = readFileSync(goldenPath(name, 'vercel'), 'utf8').trim();
    const legacy = readFileSync(goldenPath(name, 'vercel-legacy'), 'utf8').trim();
    files.push(
      typedFile(
        name,
        [
          `export const openai: OpenAIMessages = ${openai};`,
          `export const anthropic = ${anthropic} satisfies AnthropicRequest;`,
          'export const anthropicMessages: Anthropic.MessageParam[] = anthropic.messages;',
          `export const vercel = ${vercel} satisfies VercelRequest;`,
          `export const legacy: OpenAIMessages = ${legacy};`,
        ].join('\n'),
      ),
    );
  }
  const bad = typedFile(
    'zz-wrong-shapes',
    [
      "export const openai: OpenAIMessages = [{ role: 'tool', content: 'no tool_call_id' }];",
      "export const anthropic = { messages: [{ role: 'user', content: [{ type: 'tool_result', id: 'x' }] }] } satisfies AnthropicRequest;",
    ].join('\n'),
  );
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      include: ['*.ts'],
    }),
  );

  it('tsc accepts every golden openai, anthropic and vercel export and rejects wrong shapes', () => {
    const result = spawnSync('npx', ['tsc', '-p', path.join(dir, 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    const output = `${result.stdout}${result.stderr}`;
    const errorsIn = (file: string) => output.split('\n').filter((l) => l.startsWith(file) || l.includes(`/${file}(`));
    for (const file of files) expect(errorsIn(file), `type errors in ${file}:\n${output}`).toEqual([]);
    // Both wrong messages are caught, so the check is not vacuous.
    expect(errorsIn(bad).length, output).toBeGreaterThanOrEqual(2);
    expect(result.status).not.toBe(0);
  });
});

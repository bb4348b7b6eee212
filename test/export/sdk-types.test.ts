// The openai, anthropic and vercel exports are what those SDKs take: every
// golden file, and every message file of the repository (corpus.ts) with and
// without --code-as-tool, is written into a .ts file typed with the official
// SDKs' own types (`openai`'s ChatCompletionMessageParam[],
// `@anthropic-ai/sdk`'s MessageParam[] and the request's `system`, `ai`'s
// ModelMessage[]), and `tsc --noEmit` checks them. The vercel-legacy shape
// (`function_call` and the `function` role) is checked against
// ChatCompletionMessageParam, which still describes it. A file with
// deliberately wrong messages proves the check bites.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportText, toLLMView, type ExportFormat } from '../../server/export/index.js';
import { parse } from '../../server/syntax/document.js';
import { corpus } from './corpus.js';
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

/** The typed constants of one case, from its exports by target. */
function typed(get: (to: ExportFormat) => string): string {
  return [
    `export const openai: OpenAIMessages = ${get('openai')};`,
    `export const anthropic = ${get('anthropic')} satisfies AnthropicRequest;`,
    'export const anthropicMessages: Anthropic.MessageParam[] = anthropic.messages;',
    `export const vercel = ${get('vercel')} satisfies VercelRequest;`,
    `export const legacy: OpenAIMessages = ${get('vercel-legacy')};`,
  ].join('\n');
}

describe('exports type-check against the SDKs', () => {
  const files: string[] = [];
  for (const [name] of goldenCases()) files.push(typedFile(`golden-${name}`, typed((to) => readFileSync(goldenPath(name, to), 'utf8').trim())));
  corpus().forEach((file, n) => {
    for (const codeAsTool of [false, true]) {
      const view = toLLMView(parse(file.text, { fileName: file.fileName }), { codeAsTool });
      files.push(typedFile(`corpus-${n}${codeAsTool ? '-code' : ''}`, `// ${file.name}\n${typed((to) => exportText(view, to).trim())}`));
    }
  });
  const bad = typedFile(
    'zz-wrong-shapes',
    [
      "export const openai: OpenAIMessages = [{ role: 'tool', content: 'no tool_call_id' }];",
      "export const anthropic = { messages: [{ role: 'user', content: [{ type: 'tool_result', id: 'x' }] }] } satisfies AnthropicRequest;",
      "export const vercel = { messages: [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'f', args: {} }] }] } satisfies VercelRequest;",
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

  it('tsc accepts every openai, anthropic, vercel and vercel-legacy export and rejects wrong shapes', () => {
    expect(files.length).toBeGreaterThan(250);
    const result = spawnSync('npx', ['tsc', '-p', path.join(dir, 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    const output = `${result.stdout}${result.stderr}`;
    const errorsIn = (file: string) => output.split('\n').filter((l) => l.startsWith(file) || l.includes(`/${file}(`));
    for (const file of files) expect(errorsIn(file), `type errors in ${file}:\n${output}`).toEqual([]);
    // The three wrong messages are caught, so the check is not vacuous.
    expect(errorsIn(bad).length, output).toBeGreaterThanOrEqual(3);
    expect(result.status).not.toBe(0);
  });
});

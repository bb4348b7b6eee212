// The token estimate against a real tokenizer (gpt-tokenizer, o200k_base, the
// GPT-4o encoding; a dev dependency used only here). server/llm-view/tokens.ts
// documents the method and the figures measured when it was calibrated.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from '../../server/syntax/document.js';
import { cellTokens, estimateTokens, MESSAGE_OVERHEAD_TOKENS, tokenWeight } from '../../server/llm-view/tokens.js';
import { contributionText, llmView } from '../../server/llm-view/view.js';
import { generateMessageFile, SPEC_MD, SPEC_MSG } from './examples.js';

const repo = (path: string): string => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');

// Seed 003 (the original specification) is in Chinese; a few of its lines.
const CHINESE = `本文档描述了Message File的文件格式规范，用于记录对话历史。Message File 可以记录多个 agent 的对话，并支持临时 agent 的定义和使用。

1. 扩展名为 \`.msg.md\` 的文件：
   - 专用于消息记录
   - 整个文件都被视为消息记录

Message File 采用基于 Markdown 的格式，使用百分比标记（percent notation）来组织消息单元（cell）。每个消息单元包含以下组成部分：
1. **标题行**：使用百分比标记和可选的标题
2. **元数据**：使用 Markdown 脚注语法定义
3. **内容**：消息或输出的实际内容

如果输入是代码，则系统将使用第一个代码块作为单元正文，语言类型由代码块指定。代码块之外的内容将被视为模型的推理过程。
`;

const SAMPLES: [string, string][] = [
  ['spec .msg.md example', SPEC_MSG],
  ['spec .md example', SPEC_MD],
  ['generated message file', generateMessageFile(60)],
  ['Chinese prose', CHINESE],
  ['TypeScript source', repo('server/syntax/format/scan.ts')],
  ['JSON', repo('package.json')],
  ['English documentation', repo('docs/rules/duplicate-id.md')],
];

describe('estimateTokens', () => {
  for (const [what, text] of SAMPLES) {
    it(`is within 10% of o200k_base on ${what}`, () => {
      const real = countTokens(text);
      const estimate = estimateTokens(text);
      expect(Math.abs(estimate / real - 1), `estimate ${estimate}, o200k ${real}`).toBeLessThan(0.1);
    });
  }

  it('is within 6% of o200k_base on the LLM view of a generated file', () => {
    const doc = parse(generateMessageFile(60), { fileName: 'g.msg.md' });
    let real = 0;
    let estimate = 0;
    for (const entry of llmView(doc)) {
      real += MESSAGE_OVERHEAD_TOKENS + countTokens(contributionText(doc, entry));
      estimate += cellTokens(doc, entry.cell, entry.contributes);
    }
    expect(Math.abs(estimate / real - 1), `estimate ${estimate}, o200k ${real}`).toBeLessThan(0.06);
  });

  it('counts nothing as nothing, and a range like the sliced text', () => {
    expect(estimateTokens('')).toBe(0);
    const text = 'Hello, world! 12345 你好';
    expect(estimateTokens(text, 7, 19)).toBe(estimateTokens(text.slice(7, 19)));
    expect(tokenWeight(text)).toBeGreaterThan(0);
  });

  it('follows how BPE splits text', () => {
    expect(estimateTokens('hello')).toBe(1);
    expect(estimateTokens('getThreadHistory')).toBe(3);
    expect(estimateTokens('1234567')).toBe(3);
    expect(estimateTokens('你好世界')).toBe(3);
    expect(estimateTokens('😀😀')).toBe(3);
  });

  // context-window skips files shorter than the smallest window on this bound.
  it('never counts more than one token per UTF-16 code unit', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string()), (s) => tokenWeight(s) <= s.length),
      { numRuns: 2000 },
    );
    for (const [, text] of SAMPLES) expect(tokenWeight(text)).toBeLessThanOrEqual(text.length);
  });

  it('is fast: a 2.7 MB file in well under a second', () => {
    const big = generateMessageFile(2000);
    const t = performance.now();
    estimateTokens(big);
    expect(performance.now() - t).toBeLessThan(500);
  });
});

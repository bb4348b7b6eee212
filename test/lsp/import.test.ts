// The msglint/importConversation request over stdio (what "msglint: Import
// conversation…" in VS Code sends): the message file `importConversation`
// writes, the format it recognised or was told, what was dropped, and
// InvalidParams with a one-line reason for anything that is not a conversation.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importConversation, IMPORT_FORMATS } from '../../server/import/index.js';
import { lint } from '../../server/linter.js';
import { IMPORT_FORMATS as CLIENT_IMPORT_FORMATS, SERVER_IMPORT_REQUEST } from '../../client/src/constants.js';
import { LspClient, modernCapabilities } from './client.js';

const OPENAI = JSON.stringify([
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] },
  { role: 'assistant', content: 'A cat.' },
]);

describe('msglint/importConversation', () => {
  let client: LspClient;
  beforeAll(async () => {
    client = await LspClient.start({ capabilities: modernCapabilities });
  }, 60_000);
  afterAll(async () => {
    await client?.stop();
  });

  it('answers the message file, the recognised format and what was dropped, as importConversation does', async () => {
    const result = await client.request(SERVER_IMPORT_REQUEST, { text: OPENAI });
    // Without tool calls (whose ids get random nonces) the text is the same every time.
    const expected = importConversation(OPENAI);
    expect(result).toEqual({ text: expected.text, format: 'openai', dropped: expected.dropped });
    expect(result.dropped.length).toBeGreaterThan(0);
    // A message file msglint has nothing to say about.
    expect(lint(result.text, { fileName: 'imported.msg.md' }).diagnostics).toEqual([]);
  });

  it('takes the format it is told', async () => {
    const result = await client.request(SERVER_IMPORT_REQUEST, { text: OPENAI, from: 'vercel-legacy' });
    expect(result.format).toBe('vercel-legacy');
  });

  it('InvalidParams with a one-line reason: not JSON, an unknown shape, an unknown format, no text', async () => {
    const refusal = (params: unknown) =>
      client.request(SERVER_IMPORT_REQUEST, params).then(
        () => undefined,
        (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
      );
    for (const [params, reason] of [
      [{ text: '{"messages": [' }, /not JSON/],
      [{ text: '{"hello": 1}' }, /not a conversation of a known shape/],
      [{ text: OPENAI, from: 'gemini' }, /unknown format "gemini": use one of openai, /],
      [{ from: 'openai' }, /params must be \{ text: string/],
      [null, /params must be/],
    ] as const) {
      const answer = await refusal(params);
      expect(answer?.code, JSON.stringify(params)).toBe(-32602);
      expect(answer?.message).toMatch(reason);
      expect(answer?.message).not.toContain('\n');
    }
    // Still serving.
    expect((await client.request(SERVER_IMPORT_REQUEST, { text: OPENAI })).format).toBe('openai');
  });

  it('the extension offers the formats the server imports', () => {
    expect([...CLIENT_IMPORT_FORMATS]).toEqual([...IMPORT_FORMATS]);
  });
});

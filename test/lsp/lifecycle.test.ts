// The lifecycle's note of when the client last sent anything (lifecycle.ts,
// quietFor): the warm-up waits on it (diagnostics.ts, warmAfter).
import { describe, expect, it } from 'vitest';
import type { Message } from 'vscode-languageserver/node';
import { createLifecycle } from '../../server/lsp/lifecycle.js';

describe('quietFor', () => {
  it('is Infinity before any message, and starts again at each message, refused or not', () => {
    const lifecycle = createLifecycle();
    const handle = (m: Message): void => lifecycle.options.messageStrategy!.handleMessage(m, () => undefined);
    expect(lifecycle.quietFor()).toBe(Infinity);
    handle({ jsonrpc: '2.0', id: 1, method: 'textDocument/hover' } as Message);
    const refused = lifecycle.quietFor();
    expect(refused).toBeGreaterThanOrEqual(0);
    expect(refused).toBeLessThan(Infinity);
    handle({ jsonrpc: '2.0', method: 'textDocument/didChange' } as Message);
    expect(lifecycle.quietFor()).toBeLessThan(Infinity);
  });
});

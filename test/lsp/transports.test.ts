// The other transports of msglint-language-server (stdio is used by every
// other test): --socket=PORT, --node-ipc, and the usage message.
import { fork, spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProtocolConnection, IPCMessageReader, IPCMessageWriter, SocketMessageReader, SocketMessageWriter } from 'vscode-languageserver-protocol/node';
import { ensureBuilt, serverMain } from './client.js';

beforeAll(() => ensureBuilt());

const initialize = { processId: null, rootUri: null, capabilities: {} };

describe('transports', () => {
  it('--socket=PORT connects to the client`s port', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
    const proc = spawn(process.execPath, [serverMain, `--socket=${port}`], { stdio: 'ignore' });
    try {
      const socket = await accepted;
      const conn = createProtocolConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
      conn.listen();
      const result = await conn.sendRequest<{ serverInfo: { name: string } }>('initialize', initialize);
      expect(result.serverInfo.name).toBe('msglint-language-server');
      conn.dispose();
      socket.destroy();
    } finally {
      proc.kill();
      server.close();
    }
  });

  it('--node-ipc talks over the Node IPC channel', async () => {
    const child = fork(serverMain, ['--node-ipc'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`server exited (${code}): ${stderr}`))));
    try {
      const conn = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
      conn.listen();
      const result = await Promise.race([conn.sendRequest<{ capabilities: { textDocumentSync: unknown } }>('initialize', initialize), exited]);
      expect(result.capabilities.textDocumentSync).toMatchObject({ change: 2 });
      conn.dispose();
    } finally {
      child.kill();
    }
  });

  it('without a transport prints the usage and exits with status 2', () => {
    const result = spawnSync(process.execPath, [serverMain], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain('Usage: msglint-language-server --stdio');
    const help = spawnSync(process.execPath, [serverMain, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--node-ipc');
  });
});

// Starts and stops a code-server of the cache (install.mjs) for one test run:
// its own user data, extensions and config under the run's folder, bound to
// 127.0.0.1 on a free port, no authentication.

import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { entryPoint } from './install.mjs';

/** User settings that keep the workbench quiet and offline: no welcome page, trust prompt, updates or telemetry. */
const SETTINGS = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'files.autoSave': 'off',
  'chat.commandCenter.enabled': false,
};

/** A TCP port that is free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs code-server with `args` to completion (for --install-extension); rejects with its output on failure. */
function runOnce(node, args, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`code-server ${args.slice(1).join(' ')} failed (${signal ?? `exit ${code}`}): ${out.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

/**
 * Installs `vsix` into a fresh profile under `runDir` (with the user
 * `settings` on top of the quiet ones) and starts code-server there. Returns { url, stop, logFile }; `stop` kills its process group.
 */
export async function startCodeServer({ installDir, runDir, vsix, settings = {}, timeoutMs = 90_000 }) {
  const userData = path.join(runDir, 'user-data');
  const extensions = path.join(runDir, 'extensions');
  await mkdir(path.join(userData, 'User'), { recursive: true });
  await mkdir(extensions, { recursive: true });
  await writeFile(path.join(userData, 'User', 'settings.json'), JSON.stringify({ ...SETTINGS, ...settings }, null, 2) + '\n');
  // An empty config file of its own, so code-server neither reads nor writes ~/.config/code-server.
  const config = path.join(runDir, 'code-server.yaml');
  await writeFile(config, '');
  const entry = entryPoint(installDir);
  const common = [entry, '--config', config, '--user-data-dir', userData, '--extensions-dir', extensions];

  const installed = await runOnce(process.execPath, [...common, '--install-extension', vsix, '--force'], 120_000);
  if (!/successfully installed/i.test(installed)) throw new Error(`code-server did not install ${path.basename(vsix)}: ${installed.trim()}`);

  const port = await freePort();
  const logFile = path.join(runDir, 'code-server.log');
  const log = createWriteStream(logFile);
  const args = [
    ...common,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
  ];
  // Its own process group, so stopping it also ends the extension host and the language server it spawned.
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exited = null;
  child.on('exit', (code, signal) => (exited = signal ?? `exit ${code}`));

  const stop = async () => {
    if (exited === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
      const deadline = Date.now() + 5000;
      while (exited === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      if (exited === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }
    }
    log.end();
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== null) throw new Error(`code-server exited (${exited}) before it answered; see ${logFile}`);
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer on ${url} within ${timeoutMs / 1000} s; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, stop, logFile, userData };
}

// Installs code-server into a cache folder outside the project's
// dependencies, the way its postinstall.sh would, but without the step that
// downloads ripgrep from the internet (these machines reach only the npm
// registry and Debian's mirrors): Debian's `rg` takes its place.
//
// 4.100.3 (VS Code 1.100.3) is the last code-server line that runs on Node 20;
// 4.101 and later need Node 22.
//
// Needs: npm, a C/C++ toolchain and headers for the native modules
// (Debian: build-essential pkg-config libkrb5-dev) and ripgrep.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const CODE_SERVER_VERSION = '4.100.3';
const COMPLETE = '.msglint-complete';

/** The cache folder: $MSGLINT_CODE_SERVER_DIR, else $XDG_CACHE_HOME (or ~/.cache)/msglint/code-server-VERSION. */
export function cacheDir() {
  if (process.env.MSGLINT_CODE_SERVER_DIR) return path.resolve(process.env.MSGLINT_CODE_SERVER_DIR);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'msglint', `code-server-${CODE_SERVER_VERSION}`);
}

/** code-server's Node entry point inside an installed cache folder. */
export function entryPoint(dir) {
  return path.join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/** Runs a command, its output appended to `log`; rejects with the command line on failure. */
function run(cmd, args, { cwd, env = {}, log, timeoutMs = 15 * 60_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} ${args.join(' ')}: ${e.message}`));
    });
    child.on('close', async (code, signal) => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      await writeFile(log, `$ (cd ${cwd} && ${cmd} ${args.join(' ')})\n${text}\n`, { flag: 'a' });
      if (code === 0) resolve(text);
      else {
        const why = text.split('\n').filter((l) => /^npm (error|ERR!)/.test(l) && !/A complete log|^npm error\s*$/.test(l)).at(0);
        reject(new Error(`${cmd} ${args.join(' ')} in ${cwd} failed (${signal ?? `exit ${code}`}${why ? `: ${why}` : ''}); see ${log}`));
      }
    });
  });
}

/** Finds an executable on PATH. */
function which(name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const file = path.join(dir, name);
    if (dir && existsSync(file)) return file;
  }
  return undefined;
}

/**
 * Returns the cache folder with a complete install of code-server, installing
 * it first when the folder is missing or incomplete. The install goes into a
 * sibling folder that is renamed into place at the end, so an interrupted
 * install is never taken for a complete one.
 */
export async function ensureCodeServer({ log = (m) => console.log(m) } = {}) {
  const dir = cacheDir();
  if (existsSync(path.join(dir, COMPLETE)) && existsSync(entryPoint(dir))) return dir;

  const rg = which('rg');
  if (!rg) throw new Error('ripgrep (rg) is not on PATH; install it (Debian: apt-get install ripgrep)');
  for (const tool of ['npm', 'make', 'g++']) {
    if (!which(tool)) throw new Error(`${tool} is not on PATH; code-server's native modules need it (Debian: build-essential)`);
  }

  // Left-overs of interrupted installs (kept after a failure for their install.log).
  const parent = path.dirname(dir);
  for (const name of existsSync(parent) ? await readdir(parent) : []) {
    if (name.startsWith(`${path.basename(dir)}.partial-`)) await rm(path.join(parent, name), { recursive: true, force: true });
  }
  const staging = `${dir}.partial-${process.pid}`;
  await mkdir(staging, { recursive: true });
  const npmLog = path.join(staging, 'install.log');
  const started = Date.now();
  log(`Installing code-server ${CODE_SERVER_VERSION} into ${dir} (once; about 320 MB)...`);

  const npm = (args, cwd, env) => run('npm', [...args, '--no-audit', '--no-fund'], { cwd, env, log: npmLog });
  await writeFile(path.join(staging, 'package.json'), JSON.stringify({ private: true, description: 'code-server for msglint test:vscode' }) + '\n');
  // Its postinstall.sh would fetch ripgrep from GitHub: its steps follow by hand.
  await npm(['install', `code-server@${CODE_SERVER_VERSION}`, '--ignore-scripts'], staging);

  const codeServer = path.join(staging, 'node_modules', 'code-server');
  const vscode = path.join(codeServer, 'lib', 'vscode');
  await npm(['install', '--omit=dev', '--ignore-scripts'], vscode);
  const rgBin = path.join(vscode, 'node_modules', '@vscode', 'ripgrep', 'bin');
  await mkdir(rgBin, { recursive: true });
  await copyFile(rg, path.join(rgBin, 'rg'));
  await npm(['rebuild', '@parcel/watcher', 'kerberos', 'node-pty', '@vscode/spdlog', 'native-watchdog', '@vscode/deviceid'], vscode, {
    npm_config_yes: 'true',
  });
  // The links postinstall.sh makes: node_modules.asar, and the two bin/ scripts.
  await symlink('node_modules', path.join(vscode, 'node_modules.asar'));
  await symlink('code-linux.sh', path.join(vscode, 'bin', 'remote-cli', 'code-server'));
  await symlink('browser-linux.sh', path.join(vscode, 'bin', 'helpers', 'browser.sh'));
  await npm(['install', '--omit=dev'], path.join(vscode, 'extensions'));
  await npm(['rebuild', 'argon2'], staging, { npm_config_build_from_source: 'true' });

  const version = JSON.parse(await readFile(path.join(codeServer, 'package.json'), 'utf8')).version;
  if (version !== CODE_SERVER_VERSION) throw new Error(`npm installed code-server ${version}, not ${CODE_SERVER_VERSION}`);
  await writeFile(path.join(staging, COMPLETE), `${CODE_SERVER_VERSION}\n`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.dirname(dir), { recursive: true });
  await rename(staging, dir);
  log(`Installed code-server ${CODE_SERVER_VERSION} in ${Math.round((Date.now() - started) / 1000)} s`);
  return dir;
}

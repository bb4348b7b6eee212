// What the playground's tests need around the page: the page built into a
// temporary folder, a static server for it on 127.0.0.1, and Debian's
// Chromium driven by playwright-core. Everything the browser writes (its
// profile, its home) is under that folder, which belongs to whoever runs
// the tests (.ci/clone-check also runs them as an unprivileged user).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
// @ts-expect-error: a plain ES module without type declarations.
import { CHROMIUM, CHROMIUM_ARGS } from '../chromium.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export { CHROMIUM };

/** Why the browser tests cannot run here, or undefined when they can. */
export function whyNoBrowser(): string | undefined {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`;
  if (!existsSync(path.join(ROOT, 'dist/browser/server.js'))) return 'dist/browser/server.js is missing (npm run build makes it)';
  return undefined;
}

export interface Playground {
  dir: string;
  site: string;
  url: string;
  context: BrowserContext;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.png': 'image/png',
};

/** Serves `site` on 127.0.0.1 at a free port. */
async function serve(site: string): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.join(site, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
    if (!file.startsWith(site + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, server };
}

/** Builds the page into a new temporary folder, serves it and starts Chromium with a profile in that folder. */
export async function startPlayground(): Promise<Playground> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'msglint-playground-'));
  const site = path.join(dir, 'site');
  const built = spawnSync(process.execPath, [path.join(ROOT, 'client/playground/build.mjs'), '--out', site], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`npm run playground failed (${built.status}):\n${built.stdout}${built.stderr}`);
  const { url, server } = await serve(site);
  const home = path.join(dir, 'home');
  mkdirSync(home);
  const context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache') },
    viewport: { width: 1400, height: 900 },
    timeout: 60_000,
  });
  return {
    dir,
    site,
    url,
    context,
    async close() {
      await context.close().catch(() => undefined);
      await new Promise((resolve) => server.close(resolve));
      // The screenshot stays (its path is printed); the rest goes.
      for (const sub of ['site', 'profile', 'home']) rmSync(path.join(dir, sub), { recursive: true, force: true });
    },
  };
}

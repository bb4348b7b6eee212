// The Chromium the browser tests drive (the playground's in npm test, and
// test:vscode's): Debian's, or the binary MSGLINT_CHROMIUM names, started
// headless with the network features that would reach outside turned off
// (this machine's closed network refuses them, many at a time).

export const CHROMIUM = process.env.MSGLINT_CHROMIUM || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Modules client/playground/build.mjs makes at build time.

declare module 'msglint:worker-source' {
  /** dist/browser/server.js: the language server's worker script. */
  const source: string;
  export default source;
}

declare module 'msglint:examples' {
  /** The files of examples/ and the showcase (test/fixtures/showcase.msg.md). */
  const examples: { name: string; text: string }[];
  export default examples;
}

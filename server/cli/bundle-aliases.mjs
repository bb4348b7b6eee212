// Packages whose `main` esbuild cannot bundle for Node, mapped to a build it
// can (the `alias` of the Node bundles: the command's, server/cli/bundle.mjs,
// and the VS Code extension's server, client/build.mjs).
//
// jsonc-parser's `main` is a UMD module: it requires its own parts through
// its factory's `require` argument, which esbuild leaves to run time, where
// a bundle has no node_modules. Its ES module build bundles (a browser
// bundle picks it by its `module` field already). Unbundled, Node loads the
// `main`: the ES build imports its files without their extension.
export const NODE_BUNDLE_ALIASES = { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' };

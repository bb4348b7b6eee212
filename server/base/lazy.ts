// Synchronous, on-demand loading of dependencies that many runs never need
// (no globs, no `ignores`, no .gitignore): each costs milliseconds of start-up
// time, which editors and pre-commit hooks pay on every invocation.

import { createRequire } from 'node:module';

// Two ways to load, one per way msglint runs. Under Node's ESM loader (the
// library, the language server) a module has no `require`, so one is made
// for this file. The command's bundle (server/cli/bundle.mjs) is a CommonJS
// script with a `require` of its own: there each loader calls `require('…')`
// by name, which esbuild sees and bundles, still evaluated on first use.
const hasRequire = typeof require === 'function';
let esmRequire: NodeJS.Require | undefined;
const load = (id: string): unknown => (esmRequire ??= createRequire(import.meta.url))(id);

type Picomatch = typeof import('picomatch');
type IgnoreFactory = typeof import('ignore');
type YamlModule = typeof import('yaml');
export type JsoncModule = typeof import('jsonc-parser');
type CryptoModule = typeof import('node:crypto');

let picomatchModule: Picomatch | undefined;
let ignoreFactory: IgnoreFactory | undefined;
let yamlModule: YamlModule | undefined;
let jsoncModule: JsoncModule | undefined;
let cryptoModule: CryptoModule | undefined;

type MicromarkModule = typeof import('micromark');
type GfmFootnoteModule = typeof import('micromark-extension-gfm-footnote');
type GfmTableModule = typeof import('micromark-extension-gfm-table');
/** micromark (remark's tokenizer) and the two GFM extensions that make blocks: footnote definitions and tables. */
export interface Micromark {
  parse: MicromarkModule['parse'];
  preprocess: MicromarkModule['preprocess'];
  postprocess: MicromarkModule['postprocess'];
  gfmFootnote: GfmFootnoteModule['gfmFootnote'];
  gfmTable: GfmTableModule['gfmTable'];
}
let micromarkModules: Micromark | undefined;

/**
 * micromark with `micromark-extension-gfm-footnote` and
 * `micromark-extension-gfm-table` (about sixty modules): for the headings
 * of ordinary `.md` files only (syntax/format/heading-blocks.ts), never for
 * `.msg.md` files. They are ES modules: Node's `require` loads them since
 * Node 20.19, and the bundles (command, browser worker, VS Code) turn them
 * into CommonJS at build time.
 */
export function loadMicromark(): Micromark {
  if (!micromarkModules) {
    const { parse, preprocess, postprocess } = (hasRequire ? require('micromark') : load('micromark')) as MicromarkModule;
    const { gfmFootnote } = (hasRequire ? require('micromark-extension-gfm-footnote') : load('micromark-extension-gfm-footnote')) as GfmFootnoteModule;
    const { gfmTable } = (hasRequire ? require('micromark-extension-gfm-table') : load('micromark-extension-gfm-table')) as GfmTableModule;
    micromarkModules = { parse, preprocess, postprocess, gfmFootnote, gfmTable };
  }
  return micromarkModules;
}

/** `node:crypto` (and the dozen modules it loads): for --cache keys and temporary file names only. */
export function loadCrypto(): CryptoModule {
  return (cryptoModule ??= (hasRequire ? require('node:crypto') : load('node:crypto')) as CryptoModule);
}

/** `yaml`: for frontmatter and YAML config files. */
export function loadYaml(): YamlModule {
  return (yamlModule ??= (hasRequire ? require('yaml') : load('yaml')) as YamlModule);
}

/**
 * `jsonc-parser`, VS Code's reader of JSON with comments: for JSON config
 * files. Its `main` is a UMD module that esbuild cannot bundle (it requires
 * its parts through its factory's own `require`), so the Node bundles alias
 * the name to its ES module build (server/cli/bundle-aliases.mjs); Node
 * loads the `main`, since that build imports files without their extension.
 */
export function loadJsonc(): JsoncModule {
  return (jsoncModule ??= (hasRequire ? require('jsonc-parser') : load('jsonc-parser')) as JsoncModule);
}

export function loadPicomatch(): Picomatch {
  return (picomatchModule ??= (hasRequire ? require('picomatch') : load('picomatch')) as Picomatch);
}

export function loadIgnore(): IgnoreFactory {
  if (!ignoreFactory) {
    const loaded = (hasRequire ? require('ignore') : load('ignore')) as IgnoreFactory | { default: IgnoreFactory };
    ignoreFactory = 'default' in loaded ? loaded.default : loaded;
  }
  return ignoreFactory;
}

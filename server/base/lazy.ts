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
type CryptoModule = typeof import('node:crypto');

let picomatchModule: Picomatch | undefined;
let ignoreFactory: IgnoreFactory | undefined;
let yamlModule: YamlModule | undefined;
let cryptoModule: CryptoModule | undefined;

type UnifiedModule = typeof import('unified');
type RemarkParseModule = typeof import('remark-parse');
type RemarkGfmModule = typeof import('remark-gfm');
/** CommonMark with GFM (footnotes, tables) to an mdast tree, with offsets. */
export type MarkdownParser = (text: string) => import('mdast').Root;
let markdownParser: MarkdownParser | undefined;

/**
 * `unified` with `remark-parse` and `remark-gfm` (about a hundred modules):
 * for the headings of ordinary `.md` files only (syntax/format/headings.ts),
 * never for `.msg.md` files. They are ES modules: Node's `require` loads
 * them since Node 20.19, and the bundles (command, browser worker, VS Code)
 * turn them into CommonJS at build time.
 */
export function loadMarkdownParser(): MarkdownParser {
  if (!markdownParser) {
    const { unified } = (hasRequire ? require('unified') : load('unified')) as UnifiedModule;
    const remarkParse = ((hasRequire ? require('remark-parse') : load('remark-parse')) as RemarkParseModule).default;
    const remarkGfm = ((hasRequire ? require('remark-gfm') : load('remark-gfm')) as RemarkGfmModule).default;
    const processor = unified().use(remarkParse).use(remarkGfm).freeze();
    markdownParser = (text) => processor.parse(text);
  }
  return markdownParser;
}

/** `node:crypto` (and the dozen modules it loads): for --cache keys and temporary file names only. */
export function loadCrypto(): CryptoModule {
  return (cryptoModule ??= (hasRequire ? require('node:crypto') : load('node:crypto')) as CryptoModule);
}

/** `yaml`: for frontmatter and YAML config files. */
export function loadYaml(): YamlModule {
  return (yamlModule ??= (hasRequire ? require('yaml') : load('yaml')) as YamlModule);
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

// Synchronous, on-demand loading of dependencies that many runs never need
// (no globs, no `ignores`, no .gitignore): each costs milliseconds of start-up
// time, which editors and pre-commit hooks pay on every invocation.

import { createRequire } from 'node:module';

// The command's bundle (server/cli/bundle.mjs) drops this line, so that its
// bundler sees the calls below and bundles these packages, still loaded on
// first use. Keep the line exactly as it is.
const require = createRequire(import.meta.url);

type Picomatch = typeof import('picomatch');
type IgnoreFactory = typeof import('ignore');
type YamlModule = typeof import('yaml');
type CryptoModule = typeof import('node:crypto');

let picomatchModule: Picomatch | undefined;
let ignoreFactory: IgnoreFactory | undefined;
let yamlModule: YamlModule | undefined;
let cryptoModule: CryptoModule | undefined;

/** `node:crypto` (and the dozen modules it loads): for --cache keys and temporary file names only. */
export function loadCrypto(): CryptoModule {
  return (cryptoModule ??= require('node:crypto') as CryptoModule);
}

/** `yaml`: for frontmatter and YAML config files. */
export function loadYaml(): YamlModule {
  return (yamlModule ??= require('yaml') as YamlModule);
}

export function loadPicomatch(): Picomatch {
  return (picomatchModule ??= require('picomatch') as Picomatch);
}

export function loadIgnore(): IgnoreFactory {
  if (!ignoreFactory) {
    const loaded = require('ignore') as IgnoreFactory | { default: IgnoreFactory };
    ignoreFactory = 'default' in loaded ? loaded.default : loaded;
  }
  return ignoreFactory;
}

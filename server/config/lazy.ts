// Synchronous, on-demand loading of dependencies that many runs never need
// (no globs, no `ignores`, no .gitignore): each costs milliseconds of start-up
// time, which editors and pre-commit hooks pay on every invocation.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type Picomatch = typeof import('picomatch');
type IgnoreFactory = typeof import('ignore');

let picomatchModule: Picomatch | undefined;
let ignoreFactory: IgnoreFactory | undefined;

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

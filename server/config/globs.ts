// What a glob of a config (`ignores`, an override's `files`) may be. A
// repository writes both the patterns and the names they are matched
// against, and picomatch turns a pattern into a regular expression whose
// matching backtracks: each `*` multiplies the work by the length of a name
// (`a*a*a*a*a*a*a*a*a*a*b` against a 40-letter name took 15 s), each `**`
// by the depth of a path (`**/a/**/a/**/a/**/b`: 6 s against a path 60
// folders deep), each `{…}` group by its alternatives, and an extglob group
// (`+(a)+(a)+(a)+(a)+(a)+(a)b`) or a parenthesised one (`(a|aa)+b`, which
// picomatch passes to the regular expression as it is) as much as a `*` or
// exponentially (issue 46). So the syntax is .gitignore's (`*`, `**`, `?`,
// `[…]`) and `{…}`, every other character stands for itself, and the
// wildcards and alternatives are counted. No imports: validate.ts, which
// the language server's browser bundle uses, counts with it.

/**
 * The most a pattern may have: wildcards, of which `**` (a last one aside),
 * and the patterns its `{…}` groups expand to, divided by 4 for each
 * wildcard (128, 32 with one wildcard, 8 with two, 2 with three). Any
 * name or path is then matched within a tenth of a second.
 */
export const GLOB_LIMITS = { wildcards: 3, globstars: 1, expansions: 128 } as const;

/** Options for picomatch: extglobs off, dot files matched as .gitignore matches them. */
export const GLOB_OPTIONS = { dot: true, noextglob: true } as const;

/**
 * `pattern` for picomatch: the characters it would read as extglob or
 * regular-expression syntax (`( ) | + @ !`, outside `[…]`) escaped, so they
 * match themselves, as in .gitignore.
 */
export function forPicomatch(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      out += pattern.slice(i, i + 2);
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else {
      out += '()|+@!'.includes(c) ? `\\${c}` : c;
    }
  }
  return out;
}

/** No path is longer (PATH_MAX), and picomatch refuses patterns past 64 KiB. */
const MAX_LENGTH = 4096;

/** Why `pattern` would take too long to match, or undefined. */
export function globCostProblem(pattern: string): string | undefined {
  if (pattern.length > MAX_LENGTH) return `is longer than ${MAX_LENGTH} characters`;
  const { wildcards, globstars, alternatives } = globCost(pattern);
  if (wildcards > GLOB_LIMITS.wildcards) return `has more than ${GLOB_LIMITS.wildcards} wildcards (\`*\`, and \`**\` but a last one); use fewer`;
  if (globstars > GLOB_LIMITS.globstars) return `has more than one \`**\` before its end; use fewer`;
  const most = GLOB_LIMITS.expansions / 4 ** wildcards;
  if (alternatives > most) return `expands to more than ${most} patterns with its \`{…}\` groups${wildcards ? ` and ${wildcards} wildcard${wildcards > 1 ? 's' : ''}` : ''}; use fewer`;
  return undefined;
}

/**
 * The parts of `pattern` that make matching it backtrack: runs of `*`
 * within a name (`wildcards`, with the `**` that stand for folders), those
 * `**` (`globstars`; one at the end matches whatever is left and is not
 * counted), and the number of ways its `{…}` groups expand
 * (`alternatives`: `{a,b}{c,d,e}` is 6).
 */
export function globCost(pattern: string): { wildcards: number; globstars: number; alternatives: number } {
  let stars = 0;
  let globstars = 0;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\') i += 2;
    else if (c === '[') i = classEnd(pattern, i);
    else if (c === '*') {
      const start = i;
      while (pattern[i] === '*') i++;
      const wholeSegment = i - start >= 2 && (start === 0 || pattern[start - 1] === '/') && (i === pattern.length || pattern[i] === '/');
      if (!wholeSegment) stars++;
      else if (pattern.slice(i).replace(/\/+$/, '') !== '') globstars++;
    } else i++;
  }
  return { wildcards: stars + globstars, globstars, alternatives: expansions(pattern) };
}

/** Where the `[…]` opening at `start` ends (after its `]`); a `[` that never closes is a character. */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '!' || pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
  return i < pattern.length ? i + 1 : start + 1;
}

const MANY = 1e9;

/** How many patterns the `{…}` groups of `pattern` expand to (capped, so that it never overflows). */
function expansions(pattern: string): number {
  // Groups are read by recursion: nested past any use, they are too many.
  let depth = 0;
  for (let j = 0; j < pattern.length; j++) {
    const c = pattern[j];
    if (c === '\\') j++;
    else if (c === '{' && ++depth > 16) return MANY;
    else if (c === '}' && depth > 0) depth--;
  }
  let i = 0;
  // A sequence multiplies its groups; a group adds up its alternatives.
  const sequence = (inGroup: boolean): number => {
    let product = 1;
    while (i < pattern.length) {
      const c = pattern[i]!;
      if (inGroup && (c === ',' || c === '}')) break;
      if (c === '\\') i += 2;
      else if (c === '[') i = classEnd(pattern, i);
      else if (c === '{') {
        i++;
        product = Math.min(product * group(), MANY);
      } else i++;
    }
    return product;
  };
  const group = (): number => {
    let sum = 0;
    let alternatives = 0;
    for (;;) {
      sum = Math.min(sum + sequence(true), MANY);
      alternatives++;
      if (pattern[i] !== ',') break;
      i++;
    }
    if (pattern[i] === '}') i++;
    // `{a}` and a range (`{1..9}`) are one pattern each.
    return alternatives === 1 ? 1 : sum;
  };
  return sequence(false);
}

/**
 * Whether to colour output. Precedence: --color/--no-color, then FORCE_COLOR
 * ("0"/"false" turn colour off, any other non-empty value on), then NO_COLOR
 * (any non-empty value turns it off, see no-color.org), then whether the
 * destination is a terminal that understands escapes.
 */
export function shouldUseColor(
  flag: boolean | undefined,
  env: NodeJS.ProcessEnv,
  destination: { isTTY?: boolean } | undefined,
): boolean {
  if (flag !== undefined) return flag;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return destination?.isTTY === true && env.TERM !== 'dumb';
}

export interface Palette {
  bold(text: string): string;
  dim(text: string): string;
  underline(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const identity = (text: string) => text;

export function palette(enabled: boolean): Palette {
  if (!enabled) return { bold: identity, dim: identity, underline: identity, red: identity, yellow: identity };
  return { bold: wrap(1, 22), dim: wrap(2, 22), underline: wrap(4, 24), red: wrap(31, 39), yellow: wrap(33, 39) };
}

// What completion reads of a line or a cell's text, in linear time: each
// function finds what a regular expression would, without the backtracking
// that makes the expression quadratic on some lines
// (test/reliability/regex.test.ts compares them).

/**
 * The first `<tool_name>NAME</tool_name>` with a non-blank NAME (trimmed),
 * as /<tool_name>\s*([^<\s][^<]*?)\s*<\/tool_name>/ finds it, in linear
 * time: the regular expression retries its lazy group at every character,
 * quadratic on `<tool_name>x` followed by a long run of spaces.
 */
export function toolNameIn(text: string): string | undefined {
  for (let open = text.indexOf('<tool_name>'); open !== -1; open = text.indexOf('<tool_name>', open + 1)) {
    const start = open + '<tool_name>'.length;
    const lt = text.indexOf('<', start);
    if (lt === -1) return undefined;
    if (!text.startsWith('</tool_name>', lt)) continue;
    const name = text.slice(start, lt).trim();
    if (name !== '') return name;
  }
  return undefined;
}

const KEY_START = /[A-Za-z]/;
const KEY_CHAR = /[\w-]/;
const VALUE_STOP = /["\s]/;

/**
 * What /([A-Za-z][\w-]*)=("?)([^"\s]*)$/ finds at the end of a line prefix
 * (the attribute whose value the cursor is in: key, opening quote, value
 * typed so far), in linear time: the regular expression retries every start
 * position, quadratic on a metadata line of many letters. The value is
 * the run of characters other than quotes and blanks at the end; with a
 * quote before it, `key="` ends just before that quote, and that match
 * starts further left than any inside the run, so it is the one found.
 * Otherwise the key is inside the run: the first letter of the first
 * [\w-] stretch (with a letter) that ends at an `=`.
 */
export function attributeValueAtEnd(prefix: string): [key: string, quote: '' | '"', value: string] | undefined {
  const end = prefix.length;
  let v = end;
  while (v > 0 && !VALUE_STOP.test(prefix[v - 1]!)) v--;
  const keyBefore = (eq: number, from: number): number => {
    // The leftmost letter that starts an unbroken [\w-] stretch reaching eq.
    let s = eq;
    while (s > from && KEY_CHAR.test(prefix[s - 1]!)) s--;
    for (let i = s; i < eq; i++) if (KEY_START.test(prefix[i]!)) return i;
    return -1;
  };
  if (v >= 2 && prefix[v - 1] === '"' && prefix[v - 2] === '=') {
    const i = keyBefore(v - 2, 0);
    if (i !== -1) return [prefix.slice(i, v - 2), '"', prefix.slice(v)];
  }
  for (let eq = prefix.indexOf('=', v), from = v; eq !== -1; from = eq + 1, eq = prefix.indexOf('=', eq + 1)) {
    const i = keyBefore(eq, from);
    if (i !== -1) return [prefix.slice(i, eq), '', prefix.slice(eq + 1)];
  }
  return undefined;
}

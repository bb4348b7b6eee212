/**
 * Text from outside msglint (a file's content, a file's name, an error that
 * quotes either) made safe to print on a terminal or in a CI log: control
 * characters (ESC, BEL, CR, the C1 range...) would let it clear the screen,
 * set the window title or the clipboard (OSC 52), or hide lines, and the
 * bidirectional overrides and isolates would let it show text in another
 * order than it is read ("Trojan Source"). C0 controls and DEL become their
 * Unicode control pictures (ESC shows as ␛), C1 controls U+FFFD, bidi
 * controls their code point (`<U+202E>`); tab and line feed stay, and so does
 * a CR before a line feed. The JUnit formatter does the same for XML.
 */
export function visibleControls(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROL_ALL, picture) : text;
}

/**
 * As visibleControls, for text that must stay on its line (a file name in a
 * heading, a line on stderr): line feeds, every CR and the Unicode line and
 * paragraph separators are shown too, so no name can start a line of its own.
 */
export function visibleLine(text: string): string {
  return LINE_CONTROL.test(text) ? text.replace(LINE_CONTROL_ALL, picture) : text;
}

// A CR before a line feed is a CRLF line break, harmless; alone it returns to the line's start, over what was shown.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;
const CONTROL_ALL = new RegExp(CONTROL.source, 'g');
const LINE_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const LINE_CONTROL_ALL = new RegExp(LINE_CONTROL.source, 'g');

function picture(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  if (code < 0xa0) return '\ufffd';
  return `<U+${code.toString(16).toUpperCase()}>`;
}

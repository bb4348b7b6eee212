/**
 * Text from a file made safe to print on a terminal: control characters
 * (ESC, BEL, CR, the C1 range...) would let a file clear the screen, set the
 * window title or hide lines. C0 controls and DEL become their Unicode
 * control pictures (ESC shows as ␛), C1 controls U+FFFD; tab and line feed
 * stay, and so does a CR before a line feed. The JUnit formatter does the same for XML.
 */
export function visibleControls(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROL_ALL, picture) : text;
}

// A CR before a line feed is a CRLF line break, harmless; alone it returns to the line's start, over what was shown.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;
const CONTROL_ALL = new RegExp(CONTROL.source, 'g');

function picture(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  return code === 0x7f ? '\u2421' : '\ufffd';
}

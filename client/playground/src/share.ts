// The share link's text: `#text=` followed by the file's UTF-8 bytes in
// base64url (RFC 4648, section 5), without padding.

export function encodeText(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  // In chunks: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The text of a base64url string; undefined when it is not one (or not UTF-8). */
export function decodeText(encoded: string): string | undefined {
  try {
    const base64 = encoded.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The text a location's fragment carries (`#text=…`), if any. */
export function textFromHash(hash: string): string | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const encoded = params.get('text');
  return encoded === null ? undefined : decodeText(encoded);
}

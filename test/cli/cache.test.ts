// The config part of a --cache key (server/cli/cache.ts): 64-bit FNV-1a.
import { describe, expect, it } from 'vitest';
import { configDigest } from '../../server/cli/cache.js';

describe('configDigest', () => {
  it('is 64-bit FNV-1a (the published test vectors, for ASCII)', () => {
    expect(configDigest('')).toBe('cbf29ce484222325');
    expect(configDigest('a')).toBe('af63dc4c8601ec8c');
    expect(configDigest('foobar')).toBe('85944171f73967e8');
  });

  it('tells configs apart that differ in one character, and is always 16 hex digits', () => {
    const base = JSON.stringify(['0.1.0', false, { rules: { 'cell-marker': 'warn' } }]);
    const seen = new Set<string>();
    for (let i = 0; i < base.length; i++) {
      const changed = base.slice(0, i) + String.fromCharCode(base.charCodeAt(i) ^ 1) + base.slice(i + 1);
      seen.add(configDigest(changed));
    }
    seen.add(configDigest(base));
    expect(seen.size).toBe(base.length + 1);
    for (const digest of seen) expect(digest).toMatch(/^[0-9a-f]{16}$/);
  });
});

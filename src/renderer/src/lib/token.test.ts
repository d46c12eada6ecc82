import { describe, expect, it } from 'vitest';
import { parseTokenInput, readStoredToken, storeToken, takeTokenFromLocation } from './token';

const TOKEN = 'Zm9vYmFyYmF6cXV4LWxvY2ktdG9rZW4tZm9yLXRlc3Rz';

describe('takeTokenFromLocation', () => {
  it('keeps the token from #token= for this tab and removes it from the address', () => {
    window.history.replaceState(null, '', `/?x=1#token=${TOKEN}`);
    const before = window.history.length;
    expect(takeTokenFromLocation(window)).toBe(TOKEN);
    expect(window.sessionStorage.getItem('loci.token')).toBe(TOKEN);
    expect(window.location.href).not.toContain(TOKEN);
    expect(window.location.hash).toBe('#/');
    expect(window.location.search).toBe('?x=1');
    // Replaced, not pushed: Back does not lead to the address with the token.
    expect(window.history.length).toBe(before);
  });

  it('keeps a route given with the token', () => {
    window.history.replaceState(null, '', `/#token=${TOKEN}&route=%2Fmemories%2F01J`);
    expect(takeTokenFromLocation(window)).toBe(TOKEN);
    expect(window.location.hash).toBe('#/memories/01J');
  });

  it('falls back to the token this tab kept when the address has none', () => {
    storeToken(TOKEN);
    window.history.replaceState(null, '', '/#/overview');
    expect(takeTokenFromLocation(window)).toBe(TOKEN);
    expect(window.location.hash).toBe('#/overview');
  });

  it('prefers a new token in the address over the kept one', () => {
    storeToken('old-token');
    window.history.replaceState(null, '', `/#token=${TOKEN}`);
    expect(takeTokenFromLocation(window)).toBe(TOKEN);
    expect(readStoredToken()).toBe(TOKEN);
  });

  it('returns null with no token anywhere', () => {
    expect(takeTokenFromLocation(window)).toBeNull();
  });

  it('cleans the address even when the token there is malformed', () => {
    window.history.replaceState(null, '', '/#token=%E0%A4%A');
    expect(takeTokenFromLocation(window)).toBeNull();
    expect(window.location.hash).toBe('#/');
  });
});

describe('parseTokenInput', () => {
  it('accepts a bare token, padded or not', () => {
    expect(parseTokenInput(`  ${TOKEN}\n`)).toBe(TOKEN);
  });

  it('accepts the whole observatory link', () => {
    expect(parseTokenInput(`http://127.0.0.1:4747/#token=${TOKEN}`)).toBe(TOKEN);
  });

  it('refuses empty input and text with spaces inside', () => {
    expect(parseTokenInput('   ')).toBeNull();
    expect(parseTokenInput('two words')).toBeNull();
  });
});

import { makeState, readState } from './state';

const key = 'k'.repeat(40);

describe('login state', () => {
  it('round-trips return_to within 10 minutes', () => {
    const now = Date.now();
    const s = makeState(key, 'https://app.example.com/x?y=1', now);
    expect(readState(key, s, now + 599_000)).toBe('https://app.example.com/x?y=1');
    expect(readState(key, s, now + 601_000)).toBeNull();
  });

  it('refuses other keys, tampering and junk', () => {
    const s = makeState(key, 'https://app.example.com/');
    expect(readState('x'.repeat(40), s)).toBeNull();
    const [payload, mac] = s.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ t: Math.floor(Date.now() / 1000), r: 'https://evil.example/' }),
    ).toString('base64url');
    expect(readState(key, `${forged}.${mac}`)).toBeNull();
    expect(
      readState(key, `${payload}.${mac.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}`),
    ).toBeNull();
    for (const junk of [undefined, '', '.', 'abc', ['a', 'b'], `${payload}`])
      expect(readState(key, junk)).toBeNull();
  });
});

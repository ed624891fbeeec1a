import {
  bareSecret,
  clusterOf,
  formatV2Token,
  makeUuid,
  newSecret,
  parseUuid,
  parseV2Token,
  safeEqual,
  secretDigest,
} from './index';

describe('uuids', () => {
  it('makes <cluster>-<infix>-<15 chars>', () => {
    const uuid = makeUuid('home1', 'j7d0g');
    expect(uuid).toMatch(/^home1-j7d0g-[0-9a-z]{15}$/);
    expect(parseUuid(uuid)).toEqual({ cluster: 'home1', infix: 'j7d0g', rest: uuid.slice(12) });
  });

  it.each(['', 'home1-j7d0g', 'HOME1-j7d0g-000000000000000', 'home1-j7d0g-0000000000000000', 7])(
    'rejects %p',
    (value) => expect(parseUuid(value)).toBeNull(),
  );

  it('finds the cluster of a uuid', () => {
    expect(clusterOf('rmt02-4zz18-000000000000000')).toBe('rmt02');
    expect(clusterOf('d41d8cd98f00b204e9800998ecf8427e+0')).toBeNull();
  });
});

describe('tokens', () => {
  it('generates 50-character secrets', () => {
    expect(newSecret()).toMatch(/^[0-9a-z]{50}$/);
  });

  it('digests with sha-256 hex', () => {
    expect(secretDigest('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('parses v2 tokens and nothing else', () => {
    const t = formatV2Token('home1-gj3su-000000000000000', 'sekrit');
    expect(parseV2Token(t)).toEqual({ uuid: 'home1-gj3su-000000000000000', secret: 'sekrit' });
    expect(parseV2Token('v2/home1-gj3su-000000000000000/')).toBeNull();
    expect(parseV2Token('v2/nope/x')).toBeNull();
    expect(parseV2Token('plainsecret')).toBeNull();
    expect(bareSecret(t)).toBe('sekrit');
    expect(bareSecret('plain')).toBe('plain');
  });

  it('compares in constant time and correctly', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('request ids', () => {
  const { requestIdFrom } = jest.requireActual('./request-id') as typeof import('./request-id');
  it('keeps printable ASCII ids up to 1024 characters', () => {
    expect(requestIdFrom('abc 123~')).toBe('abc 123~');
    expect(requestIdFrom('x'.repeat(1024))).toBe('x'.repeat(1024));
  });
  it.each([undefined, '', 'x'.repeat(1025), 'tab\there', 'é'])('generates one for %p', (v) => {
    expect(requestIdFrom(v)).toMatch(/^req-[0-9a-z]{20}$/);
  });
});

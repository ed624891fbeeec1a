import { checkSignature, expiryHex, signLocator, signatureOf } from './signature';

// The contract's test vector: a 397-character key, a v1 token, expiry 0x7fffffff, TTL 14 days.
const KEY =
  '13u9fkuccnboeewr0ne3mvapk28epf68a3bhj9q8sb4l6e4e5mkkp6nhj2mmpscgu1zze5h5enydxfe3j215024u16ij4hjaiqs5u4pzsl3nczmaoxncljkm4875xqn4xv058koz3vkptmzhyheiy6wzevzjmdvxhvcqsvr5abhl15c2d4o4jhl0s91lojy1mtrzqqvprqcverls0xvy9vai9t1l1lvvazpuadafm71jl4mrwq2ygokee3eamvjy8qq1fvy238838enjmy5wzy2md7yvsitp5vztft6j4q866efym7e6vu5wm9fpnwjyxfldw3vbo01mgjs75rgo7qioh8z8ij7jpyp8508okhgbbex3ceei786u5rw2a9gx743dj3fgq2irk';
const TOKEN = 'hocfupkn2pjhrpgp2vxv8rsku7tvtx49arbc9s4bvu7p7wxqvk';
const P = { key: KEY, ttlSeconds: 1209600 };
const SIGNED =
  'acbd18db4cc2f85cedef654fccc4a4d8+3+A89118b78732c33104a4d6231e8b5a5fa1e4301e3@7fffffff';

describe('permission signatures', () => {
  it('signs the test vector', () => {
    expect(KEY).toHaveLength(397);
    expect(signLocator('acbd18db4cc2f85cedef654fccc4a4d8+3', TOKEN, 0x7fffffff, P)).toBe(SIGNED);
  });

  it('replaces an existing signature and keeps other hints', () => {
    const other = 'acbd18db4cc2f85cedef654fccc4a4d8+3+Kzzzzz+A' + '0'.repeat(40) + '@00000001';
    expect(signLocator(other, TOKEN, 0x7fffffff, P)).toBe(
      'acbd18db4cc2f85cedef654fccc4a4d8+3+Kzzzzz+A89118b78732c33104a4d6231e8b5a5fa1e4301e3@7fffffff',
    );
  });

  it.each([
    ['ok', SIGNED, TOKEN, 1_700_000_000],
    ['ok with other hints', SIGNED + '+Kabc', TOKEN, 1_700_000_000],
    ['missing signature', 'acbd18db4cc2f85cedef654fccc4a4d8+3', TOKEN, 0],
    ['missing signature', 'acbd18db4cc2f85cedef654fccc4a4d8+3+Axyz@7fffffff', TOKEN, 0],
    [
      'missing signature',
      'acbd18db4cc2f85cedef654fccc4a4d8+3+A' + 'a'.repeat(40) + '@7ff',
      TOKEN,
      0,
    ],
    ['missing signature', 'not a locator', TOKEN, 0],
    ['expired signature', SIGNED, TOKEN, 0x80000000],
    ['expired signature', SIGNED, 'another-token', 0x80000000],
    ['invalid signature', SIGNED, 'another-token', 0],
    ['invalid signature', SIGNED.replace('acbd', 'acbe'), TOKEN, 0],
  ])('%s: %s', (expected, locator, token, now) => {
    const want = expected.startsWith('ok') ? 'ok' : expected;
    expect(checkSignature(locator, token, now, P)).toBe(want);
  });

  it('binds the TTL into the message', () => {
    const a = signatureOf('acbd18db4cc2f85cedef654fccc4a4d8', TOKEN, '7fffffff', P);
    const b = signatureOf('acbd18db4cc2f85cedef654fccc4a4d8', TOKEN, '7fffffff', {
      ...P,
      ttlSeconds: 60,
    });
    expect(a).not.toBe(b);
  });

  it('a v2 token and its bare secret sign differently', () => {
    const v2 = 'v2/zzzzz-gj3su-000000000000000/' + TOKEN;
    expect(signLocator(SIGNED, v2, 0x7fffffff, P)).not.toBe(SIGNED);
    expect(checkSignature(signLocator(SIGNED, v2, 0x7fffffff, P), TOKEN, 0, P)).toBe(
      'invalid signature',
    );
  });

  it('writes expiries as 8 hex digits', () => {
    expect(expiryHex(1)).toBe('00000001');
    expect(expiryHex(0x7fffffff)).toBe('7fffffff');
    expect(expiryHex(1_700_000_000.9)).toBe('6553f100');
  });
});

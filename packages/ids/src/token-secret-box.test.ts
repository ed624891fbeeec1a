import { createDecipheriv, createHmac } from 'node:crypto';
import { openTokenSecret, sealTokenSecret, tokenSecretKey } from './token-secret-box';

const ROOT = 'aRootTokenOfAtLeastThirtyTwoCharacters00';
const UUID = 'home1-gj3su-077z32aux8dg2s1';
const SECRET = 'abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmn';

describe('token secret box', () => {
  it('derives the key as HMAC-SHA256(SystemRootToken, "token-secret-key")', () => {
    const expected = createHmac('sha256', ROOT).update('token-secret-key').digest();
    expect(tokenSecretKey(ROOT).equals(expected)).toBe(true);
  });

  it('round-trips, and is AES-256-GCM (iv ‖ ciphertext ‖ tag) with the uuid as AAD', () => {
    const key = tokenSecretKey(ROOT);
    const sealed = sealTokenSecret(key, UUID, SECRET);
    expect(sealed).not.toContain(SECRET);
    expect(openTokenSecret(key, UUID, sealed)).toBe(SECRET);
    const raw = Buffer.from(sealed.slice(3), 'base64');
    const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    d.setAAD(Buffer.from(UUID));
    d.setAuthTag(raw.subarray(raw.length - 16));
    expect(Buffer.concat([d.update(raw.subarray(12, raw.length - 16)), d.final()]).toString()).toBe(
      SECRET,
    );
  });

  it('uses a fresh iv each time', () => {
    const key = tokenSecretKey(ROOT);
    expect(sealTokenSecret(key, UUID, SECRET)).not.toBe(sealTokenSecret(key, UUID, SECRET));
  });

  it.each([
    ['another key', tokenSecretKey(`${ROOT}x`), UUID, (s: string) => s],
    ['another record', tokenSecretKey(ROOT), 'home1-gj3su-000000000000001', (s: string) => s],
    [
      'an altered byte',
      tokenSecretKey(ROOT),
      UUID,
      (s: string) => `${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`,
    ],
    ['an unknown format', tokenSecretKey(ROOT), UUID, (s: string) => `v9:${s.slice(3)}`],
    ['garbage', tokenSecretKey(ROOT), UUID, () => 'v1:AAAA'],
  ])('does not open with %s', (_case, key, uuid, alter) => {
    const sealed = alter(sealTokenSecret(tokenSecretKey(ROOT), UUID, SECRET));
    expect(openTokenSecret(key, uuid, sealed)).toBeNull();
  });
});

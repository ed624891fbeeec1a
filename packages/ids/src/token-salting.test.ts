import { createHash, createHmac } from 'node:crypto';
import { saltTokenFor, type LocalTokenUuidOf } from './token-salting';

const SECRET = 'abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmn';
const HERE = 'home1-gj3su-077z32aux8dg2s1';
const OTHER = 'othr3-gj3su-0000000000000aa';
const REMOTES = 'rmt02-gj3su-0000000000000bb';
const ALREADY = '0123456789abcdef0123456789abcdef01234567';
/** Independent of the code under test: hex HMAC-SHA1(key = secret, message = cluster). */
const hmac = (secret: string, cluster: string) =>
  createHmac('sha1', secret).update(cluster).digest('hex');

const lookup: LocalTokenUuidOf = (secret) => (secret === SECRET ? HERE : null);

describe('saltTokenFor (outgoing tokens)', () => {
  it.each<[string, string, string, string | null]>([
    ['v2 issued by R itself', 'rmt02', `v2/${REMOTES}/${SECRET}`, `v2/${REMOTES}/${SECRET}`],
    ['v2 already salted', 'rmt02', `v2/${HERE}/${ALREADY}`, `v2/${HERE}/${ALREADY}`],
    [
      'v2 already salted (upper-case hex)',
      'rmt02',
      `v2/${HERE}/${ALREADY.toUpperCase()}`,
      `v2/${HERE}/${ALREADY.toUpperCase()}`,
    ],
    ['v2 issued here', 'rmt02', `v2/${HERE}/${SECRET}`, `v2/${HERE}/${hmac(SECRET, 'rmt02')}`],
    [
      'v2 issued elsewhere',
      'rmt02',
      `v2/${OTHER}/${SECRET}`,
      `v2/${OTHER}/${hmac(SECRET, 'rmt02')}`,
    ],
    [
      'v2 salted for another R',
      'rmt03',
      `v2/${HERE}/${SECRET}`,
      `v2/${HERE}/${hmac(SECRET, 'rmt03')}`,
    ],
    ['bare v1 of a local token', 'rmt02', SECRET, `v2/${HERE}/${hmac(SECRET, 'rmt02')}`],
    ['bare token not local (access token)', 'rmt02', 'eyJhbGciOi.x.y', 'eyJhbGciOi.x.y'],
    ['a v2 look-alike that is not v2', 'rmt02', 'v2/not-a-uuid/x', 'v2/not-a-uuid/x'],
  ])('%s', (_case, remote, token, sent) => {
    expect(saltTokenFor(remote, token, lookup)).toBe(sent);
  });

  it('never sends a bare secret unsalted when it cannot tell whether it is local', () => {
    expect(saltTokenFor('rmt02', SECRET)).toBeNull();
    expect(saltTokenFor('rmt02', `v2/${HERE}/${SECRET}`)).toBe(
      `v2/${HERE}/${hmac(SECRET, 'rmt02')}`,
    );
  });

  it('keys the HMAC on the secret: a digest of it gives something else', () => {
    const sent = saltTokenFor('rmt02', `v2/${HERE}/${SECRET}`)!;
    const digest = createHash('sha256').update(SECRET).digest('hex');
    expect(sent.split('/')[2]).not.toBe(hmac(digest, 'rmt02'));
    expect(sent.split('/')[2]).toMatch(/^[0-9a-f]{40}$/);
  });
});

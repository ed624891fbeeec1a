import { useDeployment } from '../harness/deployment';
import { md5, raw } from '../harness/storage';
import { makeUser, type TestUser } from '../harness/users';

// No volume at all, and BlobSigning off (storage.md §3, §4).
const d = useDeployment({
  configure: (_id, section) => {
    section['Collections'] = { BlobSigning: false };
  },
});
let U: TestUser;
beforeAll(async () => {
  U = await makeUser(d.current);
});

describe('a cluster without volumes, BlobSigning off', () => {
  it('507 "insufficient storage" for every block write, after the body is checked', async () => {
    const res = await raw(d.current.url, 'PUT', `/${md5('data')}`, {
      token: U.token,
      body: 'data',
    });
    expect([res.status, res.text]).toEqual([507, 'insufficient storage\n']);
    const wrong = await raw(d.current.url, 'PUT', `/${md5('data')}`, {
      token: U.token,
      body: 'else',
    });
    expect(wrong.status).toBe(422);
  });

  it('the empty block needs no volume; its locator is unsigned', async () => {
    const res = await raw(d.current.url, 'PUT', '/d41d8cd98f00b204e9800998ecf8427e', {
      token: U.token,
      body: '',
    });
    expect([res.status, res.text]).toEqual([200, 'd41d8cd98f00b204e9800998ecf8427e+0\n']);
  });

  it('reads need no token or signature (a missing block is still 404)', async () => {
    const res = await raw(d.current.url, 'GET', `/${md5('data')}+4`);
    expect([res.status, res.text]).toEqual([404, 'block not found\n']);
  });

  it('collections take unsigned locators, but not a signature that does not verify', async () => {
    const loc = `${md5('data')}+4`;
    const ok = await U.client.request('POST', '/svc/v1/collections', {
      json: { collection: { manifest_text: `. ${loc} 0:4:f\n` } },
    });
    expect([ok.status, ok.body.manifest_text]).toEqual([200, `. ${loc} 0:4:f\n`]);
    const bad = `${loc}+A${'0'.repeat(40)}@7fffffff`;
    const res = await U.client.request('POST', '/svc/v1/collections', {
      json: { collection: { manifest_text: `. ${bad} 0:4:f\n` } },
    });
    expect([res.status, res.body.errors]).toEqual([403, [`invalid signature on locator ${bad}`]]);
  });
});

import { decodeIdentity, encodeIdentity, proofKey, signProof, verifyProof } from './gateway-proof';

const key = proofKey('r'.repeat(40));
const fields = { method: 'GET', url: '/svc/v1/groups?x=1', identity: 'abc', requestId: 'req-1' };

describe('gateway proof', () => {
  it('verifies what it signed', () => {
    expect(verifyProof(key, signProof(key, fields), fields)).toBe(true);
  });

  it.each([
    ['method', { ...fields, method: 'DELETE' }],
    ['url', { ...fields, url: '/svc/v1/groups?x=2' }],
    ['identity', { ...fields, identity: 'abd' }],
    ['request id', { ...fields, requestId: 'req-2' }],
  ])('fails when the %s changes', (_what, changed) => {
    expect(verifyProof(key, signProof(key, fields), changed)).toBe(false);
  });

  it('fails with another key, stale, missing or malformed proofs', () => {
    const now = Date.now();
    expect(verifyProof(proofKey('s'.repeat(40)), signProof(key, fields), fields)).toBe(false);
    expect(verifyProof(key, signProof(key, fields, now - 120_000), fields, now)).toBe(false);
    expect(verifyProof(key, undefined, fields)).toBe(false);
    expect(verifyProof(key, 'v1.x.y', fields)).toBe(false);
  });

  it('round-trips identities', () => {
    const identity = {
      userUuid: 'u',
      tokenUuid: null,
      scopes: ['all'],
      apiClientUuid: null,
      apiClientTrusted: false,
      isAdmin: false,
      isActive: true,
    };
    expect(decodeIdentity(encodeIdentity(identity))).toEqual(identity);
    expect(decodeIdentity('!!')).toBeNull();
    expect(decodeIdentity(Buffer.from('{"userUuid":1}').toString('base64url'))).toBeNull();
  });
});

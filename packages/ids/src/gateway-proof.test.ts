import { identityFrom, proofKey, ProofSigner, verifyProof } from './gateway-proof';

const key = proofKey('r'.repeat(40));
const fields = {
  method: 'POST',
  url: '/_call/svc.groups.list',
  requestId: 'req-1',
  body: '{"options":{}}',
};

describe('gateway proof', () => {
  it('verifies what it signed, naming its sender, sequence number and time', () => {
    const signer = new ProofSigner();
    const at = Date.now();
    const first = verifyProof(key, signer.sign(key, fields, at), fields);
    const second = verifyProof(key, signer.sign(key, fields, at), fields);
    expect(first).toEqual({ sender: signer.sender, seq: 1, signedAt: at });
    expect(second).toEqual({ sender: signer.sender, seq: 2, signedAt: at });
  });

  it.each([
    ['method', { ...fields, method: 'DELETE' }],
    ['url', { ...fields, url: '/_call/svc.groups.delete' }],
    ['request id', { ...fields, requestId: 'req-2' }],
    ['body', { ...fields, body: '{"options":{"limit":1}}' }],
  ])('fails when the %s changes', (_what, changed) => {
    expect(verifyProof(key, new ProofSigner().sign(key, fields), changed)).toBeNull();
  });

  it('fails with another key, stale, missing or malformed proofs', () => {
    const now = Date.now();
    const signer = new ProofSigner();
    expect(verifyProof(proofKey('s'.repeat(40)), signer.sign(key, fields), fields)).toBeNull();
    expect(verifyProof(key, signer.sign(key, fields, now - 120_000), fields, now)).toBeNull();
    expect(verifyProof(key, undefined, fields)).toBeNull();
    expect(verifyProof(key, 'v1.1.x', fields)).toBeNull();
  });

  it('reads identities field by field', () => {
    const identity = {
      userUuid: 'u',
      tokenUuid: null,
      scopes: ['all'],
      apiClientUuid: null,
      apiClientTrusted: false,
      isAdmin: false,
      isActive: true,
    };
    expect(identityFrom(identity)).toEqual(identity);
    expect(identityFrom('!!')).toBeNull();
    expect(identityFrom({ userUuid: 1 })).toBeNull();
  });
});

import { identityFrom, proofKey, ProofSigner, ReplayWindow, verifyProof } from './gateway-proof';

const key = proofKey('r'.repeat(40));
const fields = {
  method: 'POST',
  url: '/_call/svc.groups.list',
  requestId: 'req-1',
  body: '{"options":{}}',
};

describe('gateway proof', () => {
  it('verifies what it signed, naming its sender and sequence number', () => {
    const signer = new ProofSigner();
    const first = verifyProof(key, signer.sign(key, fields), fields);
    const second = verifyProof(key, signer.sign(key, fields), fields);
    expect(first).toEqual({ sender: signer.sender, seq: 1 });
    expect(second).toEqual({ sender: signer.sender, seq: 2 });
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

  it('accepts each proof once, within a window, per sender', () => {
    const window = new ReplayWindow(4);
    const a = { sender: 'aaaaaaaaaaaa', seq: 1 };
    expect(window.accept(a)).toBe(true);
    expect(window.accept(a)).toBe(false);
    expect(window.accept({ sender: 'bbbbbbbbbbbb', seq: 1 })).toBe(true);
    for (const seq of [3, 2, 9]) expect(window.accept({ ...a, seq })).toBe(true);
    // Highest seen is 9, window 4: 6..8 arrive late and are accepted once; 5 and below are too old.
    expect([5, 6, 7, 6, 9, 8].map((seq) => window.accept({ ...a, seq }))).toEqual([
      false,
      true,
      true,
      false,
      false,
      true,
    ]);
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

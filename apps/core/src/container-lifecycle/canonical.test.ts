import { canonicalJson, reuseDigest, sameJson, secretMountsDigest } from './canonical';

const base = {
  command: ['echo', 'hi'],
  cwd: '/',
  environment: { A: '1', B: '2' },
  output_path: '/out',
  container_image: 'd41d8cd98f00b204e9800998ecf8427e+0',
  mounts: { '/out': { kind: 'tmp', capacity: 1 } },
  runtime_constraints: { ram: 1, vcpus: 1 },
  secret_mounts_md5: secretMountsDigest({}),
  runtime_user_uuid: 'home1-tpzed-000000000000000',
  runtime_auth_scopes: ['all'],
};

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,1]},"b":1}',
    );
    expect(sameJson({ x: { b: 1, a: 2 } }, { x: { a: 2, b: 1 } })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
  });
});

describe('reuseDigest', () => {
  it('ignores key order at every depth', () => {
    const reordered = {
      ...base,
      environment: { B: '2', A: '1' },
      mounts: { '/out': { capacity: 1, kind: 'tmp' } },
    };
    expect(reuseDigest(reordered)).toBe(reuseDigest(base));
  });

  it.each([
    ['command', ['echo', 'ho']],
    ['cwd', '/tmp'],
    ['environment', { A: '9', B: '2' }],
    ['output_path', '/o'],
    ['container_image', 'x'],
    ['mounts', { '/out': { kind: 'tmp', capacity: 2 } }],
    ['runtime_constraints', { ram: 2, vcpus: 1 }],
    ['secret_mounts_md5', secretMountsDigest({ '/s': { kind: 'text', content: 'x' } })],
    ['runtime_user_uuid', 'home1-tpzed-aaaaaaaaaaaaaaa'],
    ['runtime_auth_scopes', ['GET /']],
  ])('changes with %s', (key, value) => {
    expect(reuseDigest({ ...base, [key]: value })).not.toBe(reuseDigest(base));
  });

  it('treats {} and absent secret mounts alike', () => {
    expect(secretMountsDigest(undefined)).toBe(secretMountsDigest({}));
    expect(secretMountsDigest({})).toBe('99914b932bd37a50b983c5e7c90ae93b');
  });
});

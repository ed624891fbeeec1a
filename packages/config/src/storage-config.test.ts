import { createHmac } from 'node:crypto';
import { ConfigError } from './errors';
import { publicConfig } from './public-config';
import { singleClusterConfig, buildConfig } from './load';
import { validateConfig } from './validate';

const TOKEN = 'a'.repeat(32);
const cluster = (extra: Record<string, unknown> = {}) => ({
  Clusters: {
    home1: {
      SystemRootToken: TOKEN,
      Database: { URL: 'postgres://localhost/x' },
      Login: { Test: { Enable: true } },
      ...extra,
    },
  },
});
const dir = (extra: Record<string, unknown> = {}) => ({
  Driver: 'Directory',
  DriverParameters: { Root: '/tmp/x' },
  ...extra,
});
const s3 = (extra: Record<string, unknown> = {}) => ({
  Driver: 'S3',
  DriverParameters: { Bucket: 'b', AccessKeyID: 'k', SecretAccessKey: 's', ...extra },
});

const failure = (input: unknown): string => {
  try {
    validateConfig(input);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error('valid');
};

describe('storage configuration (storage.md §3)', () => {
  it('has the documented defaults', () => {
    const c = validateConfig(cluster()).Clusters['home1']!;
    expect(c.Collections).toEqual({
      BlobSigning: true,
      BlobSigningKey: createHmac('sha256', TOKEN).update('blob-signing-key').digest('hex'),
      BlobSigningTTL: 1209600,
      BlobTrashLifetime: 1209600,
      BlobTrashCheckInterval: 86400,
      DefaultReplication: 2,
    });
    expect(c.Volumes).toEqual({});
  });

  it('fills volume defaults', () => {
    const c = validateConfig(cluster({ Volumes: { v1: dir(), v2: s3() } })).Clusters['home1']!;
    expect(c.Volumes['v1']).toMatchObject({ ReadOnly: false, Replication: 1 });
    expect(c.Volumes['v2']!.DriverParameters).toMatchObject({
      Endpoint: '',
      Region: 'us-east-1',
      UsePathStyle: false,
      PrefixLength: 0,
    });
  });

  it('keeps a configured key', () => {
    const key = 'k'.repeat(40);
    const c = validateConfig(cluster({ Collections: { BlobSigningKey: key } })).Clusters['home1']!;
    expect(c.Collections.BlobSigningKey).toBe(key);
  });

  it.each([
    [
      { Collections: { BlobSigningKey: 'short' } },
      'Clusters.home1.Collections.BlobSigningKey: must be at least 32 characters',
    ],
    [{ Collections: { DefaultReplication: 0 } }, 'Clusters.home1.Collections.DefaultReplication'],
    [{ Volumes: { 'bad id!': dir() } }, 'Clusters.home1.Volumes.bad id!: volume id must match'],
    [{ Volumes: { v: { Driver: 'Tape' } } }, 'Clusters.home1.Volumes.v.Driver'],
    [
      { Volumes: { v: dir({ DriverParameters: {} }) } },
      'Clusters.home1.Volumes.v.DriverParameters.Root: is required for Directory',
    ],
    [
      { Volumes: { v: { Driver: 'S3', DriverParameters: { Bucket: 'b' } } } },
      'Clusters.home1.Volumes.v.DriverParameters.AccessKeyID: is required for S3',
    ],
    [
      { Volumes: { v: s3({ PrefixLength: 4 }) } },
      'Clusters.home1.Volumes.v.DriverParameters.PrefixLength',
    ],
    [{ Volumes: { v: dir({ Replication: 0 }) } }, 'Clusters.home1.Volumes.v.Replication'],
    [{ Volumes: { v: dir({ Colour: 'red' }) } }, 'Clusters.home1.Volumes.v.Colour: unknown key'],
  ])('rejects %j', (extra, message) => {
    expect(failure(cluster(extra))).toContain(message);
  });

  it('stops when the writable volumes cannot hold DefaultReplication copies', () => {
    const volumes = { a: dir(), b: dir({ ReadOnly: true, Replication: 3 }) };
    expect(failure(cluster({ Volumes: volumes }))).toBe(
      'configuration error: Clusters.home1.Collections.DefaultReplication: 2 copies wanted but the writable volumes hold at most 1',
    );
    expect(() =>
      validateConfig(cluster({ Volumes: { a: dir({ Replication: 2 }) } })),
    ).not.toThrow();
    // Without volumes there is nothing to compare against (writes answer 507).
    expect(() => validateConfig(cluster({ Collections: { DefaultReplication: 5 } }))).not.toThrow();
  });

  it('the embedded default has one Directory volume and one copy', () => {
    const raw = singleClusterConfig({
      clusterId: 'zzzzz',
      systemRootToken: TOKEN,
      databaseUrl: 'pglite:memory',
      blocksDir: '/data/blocks',
    });
    const c = buildConfig(raw, {}).Clusters['zzzzz']!;
    expect(c.Collections.DefaultReplication).toBe(1);
    expect(c.Volumes).toEqual({
      local: expect.objectContaining({
        Driver: 'Directory',
        DriverParameters: expect.objectContaining({ Root: '/data/blocks' }),
      }),
    });
  });

  it('public config shows BlobSigning and the storage class, never the key or credentials', () => {
    const c = validateConfig(cluster({ Volumes: { v: { ...s3(), Replication: 2 } } })).Clusters[
      'home1'
    ]!;
    const shown = publicConfig(c, 'http://127.0.0.1:8000/');
    expect(shown['Collections']).toEqual({
      BlobSigning: true,
      BlobSigningTTL: 1209600,
      DefaultReplication: 2,
    });
    expect(shown['StorageClasses']).toEqual({ default: { Default: true } });
    const text = JSON.stringify(shown);
    expect(text).not.toContain(c.Collections.BlobSigningKey);
    expect(text).not.toContain('SecretAccessKey');
  });
});

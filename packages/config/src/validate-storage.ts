import { hmacHex } from '@svc/ids';
import { ConfigError } from './errors';
import type { ClusterConfig } from './schema';

const VOLUME_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** The HMAC key of block signatures when none is configured (storage.md §3). */
export const derivedBlobSigningKey = (systemRootToken: string): string =>
  hmacHex('sha256', systemRootToken, 'blob-signing-key');

/**
 * Volumes and block settings of one cluster (storage.md §3): volume ids, each driver's required
 * parameters, enough writable replication for DefaultReplication; the signing key derived when
 * empty. Runs after SystemRootToken is reduced to its secret.
 */
export function checkStorage(id: string, c: ClusterConfig): void {
  const at = (k: string) => `Clusters.${id}.${k}`;
  let writable = 0;
  for (const [vid, v] of Object.entries(c.Volumes)) {
    if (!VOLUME_ID_RE.test(vid))
      throw new ConfigError(at(`Volumes.${vid}`), 'volume id must match ^[A-Za-z0-9_-]{1,64}$');
    const p = v.DriverParameters;
    const required =
      v.Driver === 'Directory' ? ['Root'] : ['Bucket', 'AccessKeyID', 'SecretAccessKey'];
    for (const key of required) {
      if (p[key as keyof typeof p] === '')
        throw new ConfigError(
          at(`Volumes.${vid}.DriverParameters.${key}`),
          `is required for ${v.Driver}`,
        );
    }
    if (!v.ReadOnly) writable += v.Replication;
  }
  const wanted = c.Collections.DefaultReplication;
  if (Object.keys(c.Volumes).length > 0 && wanted > writable) {
    throw new ConfigError(
      at('Collections.DefaultReplication'),
      `${wanted} copies wanted but the writable volumes hold at most ${writable}`,
    );
  }
  if (c.Collections.BlobSigningKey === '') {
    c.Collections.BlobSigningKey = derivedBlobSigningKey(c.SystemRootToken);
  }
}

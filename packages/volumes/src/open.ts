import type { ClusterConfig } from '@svc/config';
import { DirectoryVolume } from './directory';
import { S3Volume } from './s3';
import type { Clock, Volume } from './volume';

/** The volumes a cluster's configuration names (storage.md §3), not yet checked. */
export function volumesOf(cluster: Readonly<ClusterConfig>, clock?: Clock): Volume[] {
  return Object.entries(cluster.Volumes).map(([id, v]) =>
    v.Driver === 'Directory'
      ? new DirectoryVolume(id, v.DriverParameters.Root, {
          readOnly: v.ReadOnly,
          replication: v.Replication,
          ...(clock ? { clock } : {}),
        })
      : new S3Volume(id, v),
  );
}

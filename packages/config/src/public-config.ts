import type { ClusterConfig } from './schema';

/** The secret-free subset served at `GET /svc/v1/config` (discovery.md §5). */
export function publicConfig(c: ClusterConfig): Record<string, unknown> {
  const remotes = Object.fromEntries(
    Object.entries(c.RemoteClusters).map(([id, r]) => [
      id,
      { Host: r.Host, Proxy: r.Proxy, Scheme: r.Scheme },
    ]),
  );
  // The vocabulary's file path is the server's business; clients read GET /vocabulary.
  const { VocabularyPath: _path, ...api } = c.API;
  return {
    ClusterID: c.ClusterID,
    API: api,
    Collections: {
      BlobSigning: c.Collections.BlobSigning,
      BlobSigningTTL: c.Collections.BlobSigningTTL,
      DefaultReplication: c.Collections.DefaultReplication,
    },
    Containers: { ...c.Containers },
    Login: {
      OpenIDConnect: {
        Enable: c.Login.OpenIDConnect.Enable,
        AcceptAccessToken: c.Login.OpenIDConnect.AcceptAccessToken,
      },
      LDAP: { Enable: c.Login.LDAP.Enable },
      PAM: { Enable: c.Login.PAM.Enable },
      Test: { Enable: c.Login.Test.Enable },
      TrustedClients: [...c.Login.TrustedClients],
    },
    RemoteClusters: remotes,
    StorageClasses: { default: { Default: true } },
  };
}

/** Remote clusters requests can be routed to (federation.md §1). */
export const routableRemotes = (c: ClusterConfig): string[] =>
  Object.entries(c.RemoteClusters)
    .filter(([id, r]) => r.Proxy && id !== c.ClusterID)
    .map(([id]) => id);

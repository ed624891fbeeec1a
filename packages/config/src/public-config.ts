import { SERVICE_NAMES, type ClusterConfig, type ServiceName } from './schema';

/** The parts svc has, reached at the public base URL (or, for the event stream, below it). */
const DERIVED: Partial<Record<ServiceName, (base: URL) => string>> = {
  Controller: (base) => base.href,
  Websocket: (base) => {
    const ws = new URL('websocket', base);
    ws.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
    return ws.href;
  },
  WebDAV: (base) => base.href,
  WebDAVDownload: (base) => base.href,
  Workbench2: (base) => base.href,
};

/**
 * Where clients reach each part of the cluster: `Services.<name>.ExternalURL` when set, else
 * derived from the public base URL (`ExternalURL`, or the URL the request came in on); `""`
 * for the parts svc does not have.
 */
export function serviceUrls(
  c: ClusterConfig,
  requestBase: string,
): Record<ServiceName, { ExternalURL: string }> {
  const base = new URL(c.ExternalURL !== '' ? c.ExternalURL : requestBase);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const entries = SERVICE_NAMES.map((name) => {
    const configured = c.Services[name].ExternalURL;
    const url = configured !== '' ? configured : (DERIVED[name]?.(base) ?? '');
    return [name, { ExternalURL: url }] as const;
  });
  return Object.fromEntries(entries) as Record<ServiceName, { ExternalURL: string }>;
}

/**
 * The secret-free subset served at `GET /svc/v1/config` (discovery.md §5); `requestBase` is
 * the URL the request came in on (`<scheme>://<host>/`), from which unset services derive.
 */
export function publicConfig(c: ClusterConfig, requestBase: string): Record<string, unknown> {
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
    Services: serviceUrls(c, requestBase),
    StorageClasses: { default: { Default: true } },
  };
}

/** Remote clusters requests can be routed to (federation.md §1). */
export const routableRemotes = (c: ClusterConfig): string[] =>
  Object.entries(c.RemoteClusters)
    .filter(([id, r]) => r.Proxy && id !== c.ClusterID)
    .map(([id]) => id);

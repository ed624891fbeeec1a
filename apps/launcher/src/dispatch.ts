import { join, resolve } from 'node:path';
import type { Config } from '@svc/config';
import { SvcClient } from '@svc/client';
import { startDispatcher, type Dispatcher } from '@svc/dispatcher';

/**
 * The dispatcher that runs with the server unless the home cluster's
 * `Containers.Dispatch.Backend` is `none` (local in the embedded default, execution.md §1): it gets
 * an admin token of its own, made with the root token at start, since a container's lock
 * records the token that took it.
 */
export async function startEmbeddedDispatcher(
  config: Readonly<Config>,
  url: string,
  dataDir: string,
): Promise<{ dispatcher: Dispatcher; note: string } | null> {
  const home = config.Clusters[config.Gateway.HomeCluster];
  if (!home || home.Containers.Dispatch.Backend === 'none') return null;
  const root = new SvcClient({ host: url, token: home.SystemRootToken });
  const res = await root.request('POST', '/svc/v1/api_client_authorizations', {
    json: { api_client_authorization: { scopes: ['all'] } },
  });
  if (res.status !== 200) throw new Error(`dispatcher token: ${res.status} ${res.text}`);
  const token = `v2/${res.body.uuid}/${res.body.api_token}`;
  const stateDir = resolve(join(dataDir, 'dispatch'));
  const dispatcher = await startDispatcher({
    apiHost: url,
    token,
    stateDir,
    settings: home.Containers,
    blobSigningTTL: home.Collections.BlobSigningTTL,
    log: (line) => process.stderr.write(`dispatcher: ${line}\n`),
  });
  return {
    dispatcher,
    note: `containers: ${home.Containers.Dispatch.Backend} dispatcher (state in ${stateDir})`,
  };
}

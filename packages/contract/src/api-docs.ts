import { buildDiscovery } from './discovery';
import { buildOpenApi } from './openapi';

/**
 * The API documents kept in the repository (docs/api/): what a server with the default
 * configuration publishes, for an example cluster `zzzzz` at https://svc.example.org/.
 */
export function apiDocuments(): Record<string, Record<string, unknown>> {
  return {
    'openapi.json': buildOpenApi({ serverUrl: 'https://svc.example.org/svc/v1' }),
    'discovery.json': buildDiscovery({
      rootUrl: 'https://svc.example.org/',
      clusterId: 'zzzzz',
      maxItemsPerResponse: 1000,
      maxRequestSize: 134217728,
      defaultReplication: 2,
      blobSigningTtl: 1209600,
      remoteHosts: {},
    }),
  };
}

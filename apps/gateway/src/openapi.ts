import { buildOpenApi } from '@svc/contract';
import type { GatewayHandler } from './login';

/**
 * `GET /svc/v1/openapi.json`: the OpenAPI 3.1 document, built from the endpoint table like
 * discovery. Public; the server URL is ExternalURL's, or relative to wherever it was fetched.
 */
export function openApiHandler(): GatewayHandler {
  const cache = new Map<string, Record<string, unknown>>();
  return async (deps) => {
    const external = deps.home.ExternalURL;
    const serverUrl = external === '' ? '/svc/v1' : `${external.replace(/\/+$/, '')}/svc/v1`;
    let doc = cache.get(serverUrl);
    if (doc === undefined) {
      doc = buildOpenApi({ serverUrl });
      cache.set(serverUrl, doc);
    }
    return { status: 200, body: doc };
  };
}

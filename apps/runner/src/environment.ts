import type { Json } from './json';
import type { ImageConfig } from './image-archive';

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** How the container reaches the API, when it has access (`runtime_constraints.API`). */
export interface ApiAccess {
  /** Base URL of the gateway as the container reaches it (`http://host:port`, `https://…`). */
  apiHost: string;
  /** The container's own token. */
  token: string;
  insecure: boolean;
}

/**
 * The command's environment (execution.md §3.4): the image's `Env`, then the container's
 * `environment`, then, with API access, SVC_API_HOST as `host:port` (never a URL, as for
 * clients outside), SVC_API_SCHEME=http on a plain-HTTP gateway, SVC_API_TOKEN and
 * SVC_API_HOST_INSECURE. PATH gets the usual default when neither sets it.
 */
export function containerEnv(
  container: Json,
  image: ImageConfig,
  api: ApiAccess,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const kv of image.Env) {
    const eq = kv.indexOf('=');
    if (eq > 0) env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  Object.assign(env, container['environment'] ?? {});
  if (container['runtime_constraints']?.['API']) {
    const url = new URL(api.apiHost);
    env['SVC_API_HOST'] = url.host;
    if (url.protocol === 'http:') env['SVC_API_SCHEME'] = 'http';
    env['SVC_API_TOKEN'] = api.token;
    env['SVC_API_HOST_INSECURE'] = api.insecure ? '1' : '0';
  }
  if (!env['PATH']) env['PATH'] = DEFAULT_PATH;
  return env;
}

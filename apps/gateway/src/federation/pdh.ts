import type { Endpoint } from '@svc/contract';
import { NotFoundError, BadGatewayError } from '@svc/errors';
import { parseManifest, portableDataHash } from '@svc/ids';
import type { Caller, ClusterCalls } from './cluster-calls';

/** Does a collection answer carry a manifest whose portable data hash is `pdh`? */
function hashesTo(body: unknown, pdh: string): boolean {
  const text = (body as { manifest_text?: unknown } | null)?.manifest_text;
  if (typeof text !== 'string') return false;
  try {
    return portableDataHash(parseManifest(text).portable) === pdh.split('+').slice(0, 2).join('+');
  } catch {
    return false;
  }
}

/**
 * federation.md §2: a collection by PDH not found here is asked of every routable remote at
 * once; the first 200 whose manifest hashes to the PDH wins. If none: 502 when any remote failed
 * (5xx, no answer, another hash), else 404.
 */
export async function findByPdh(
  calls: ClusterCalls,
  endpoint: Endpoint,
  options: Record<string, unknown>,
  remotes: readonly string[],
  caller: Caller,
): Promise<unknown> {
  const pdh = String(options['uuid']);
  let failed = false;
  const attempts = remotes.map(async (cluster) => {
    try {
      const answer = await calls.call(cluster, endpoint, options, caller);
      if (answer.status === 200 && hashesTo(answer.body, pdh)) return answer.body;
      if (answer.status >= 500 || answer.status === 200) failed = true;
    } catch {
      failed = true;
    }
    throw new Error('no');
  });
  try {
    return await Promise.any(attempts);
  } catch {
    if (failed) throw new BadGatewayError(`error fetching collection ${pdh} from remote clusters`);
    throw new NotFoundError();
  }
}

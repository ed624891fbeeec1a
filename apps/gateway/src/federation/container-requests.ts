import { containerMsg, rootIdentity } from '@svc/contract';
import { ApiError, ForbiddenError, UnprocessableError } from '@svc/errors';
import { clusterOf, parseV2Token, type Identity } from '@svc/ids';
import type { CoreJson, Identities } from './identities';
import { tokenFor } from './salting';

/** A container request create or update, as far as its runtime token matters here. */
const RUNTIME_TOKEN_CALLS = new Set([
  'svc.container_requests.create',
  'svc.container_requests.update',
]);

/** What making a runtime token needs: the home core, the token lifetime, the caller's request id. */
interface RuntimeTokenDeps {
  home: string;
  ttlSeconds: number;
  coreJson: CoreJson;
  requestId?: string;
}

const attributesOf = (options: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const a = options['attributes'];
  return a !== null && typeof a === 'object' ? (a as Record<string, unknown>) : {};
};

/**
 * containers.md §13: a container request created on another cluster without a runtime_token
 * runs with one made here — for a local user a new token of `Collections.BlobSigningTTL`, for
 * a remote user the caller's own v2 token — provided the caller's token has scopes exactly
 * `["all"]` (else 403 "token scope is not [all]"). Either is salted for the target (§3). An
 * explicit runtime_token goes unchanged.
 */
export async function withFederatedRuntimeToken(
  options: Readonly<Record<string, unknown>>,
  target: string,
  caller: { identity: Identity; token: string; v2Form?: string },
  deps: RuntimeTokenDeps,
): Promise<Readonly<Record<string, unknown>>> {
  const attributes = attributesOf(options);
  if (typeof attributes['runtime_token'] === 'string' && attributes['runtime_token'] !== '') {
    return options;
  }
  const scopes = caller.identity.scopes;
  if (scopes.length !== 1 || scopes[0] !== 'all')
    throw new ForbiddenError('token scope is not [all]');
  const local = clusterOf(caller.identity.userUuid) === deps.home;
  const runtime = local
    ? await newLocalToken(caller.identity.userUuid, deps)
    : (caller.v2Form ?? caller.token);
  return {
    ...options,
    attributes: { ...attributes, runtime_token: tokenFor(target, deps.home, runtime, undefined) },
  };
}

async function newLocalToken(owner: string, deps: RuntimeTokenDeps): Promise<string> {
  const expires = new Date(Date.now() + deps.ttlSeconds * 1000).toISOString();
  const res = await deps.coreJson(
    deps.home,
    'svc.api_client_authorizations.create',
    { attributes: { owner_uuid: owner, scopes: ['all'], expires_at: expires } },
    rootIdentity(deps.home),
    deps.requestId,
  );
  const body = res.body as { uuid?: string; api_token?: string } | null;
  if (res.status !== 200 || !body?.uuid || !body.api_token) {
    throw new ApiError(res.status >= 400 ? res.status : 500, 'could not make a runtime token');
  }
  return `v2/${body.uuid}/${body.api_token}`;
}

/**
 * A runtime_token of another cluster is validated at its issuer for the cluster that will keep
 * it (federation.md §4), so that cluster knows it when the request is saved; a token its issuer
 * refuses is the request's 422 (containers.md §2).
 */
export async function knownRuntimeToken(
  endpointId: string,
  options: Readonly<Record<string, unknown>>,
  cluster: string,
  identities: Identities,
): Promise<void> {
  if (!RUNTIME_TOKEN_CALLS.has(endpointId)) return;
  const token = attributesOf(options)['runtime_token'];
  if (typeof token !== 'string') return;
  const issuer = parseV2Token(token) ? clusterOf(parseV2Token(token)!.uuid) : null;
  if (issuer === null || issuer === cluster) return;
  try {
    await identities.forCluster(cluster, token, null);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      throw new UnprocessableError(containerMsg.runtimeTokenInvalid());
    }
    throw err;
  }
}

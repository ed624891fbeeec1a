import { apiClientAuthorizations, builtInUuids, moreMsg } from '@svc/contract';
import { ForbiddenError, UnprocessableError } from '@svc/errors';
import { newSecret, sealTokenSecret, secretDigest, tokenSecretKey } from '@svc/ids';
import { raw, sql } from '@svc/list-engine';
import type { Call, Reply } from '../../call';
import { readObject } from '../common/crud';
import type { Row } from '../common/row';
import type { ResourceRules } from '../common/rules';
import { requireActive } from '../../permissions/policy';

const CREATED_SECRET = 'createdTokenSecret';

/**
 * What a token record keeps of its secret (auth.md §2): D, the digest that finds and checks it,
 * and E, the secret sealed under a key derived from SystemRootToken, for salted tokens only.
 * Every path that makes a token record comes through here (create, logins, access-token cache).
 */
export function storedSecret(
  systemRootToken: string,
  tokenUuid: string,
  secret: string,
): { secret_digest: string; secret_ciphertext: string } {
  return {
    secret_digest: secretDigest(secret),
    secret_ciphertext: sealTokenSecret(tokenSecretKey(systemRootToken), tokenUuid, secret),
  };
}

const isRootToken = (call: Call): boolean =>
  call.caller.identity.tokenUuid === builtInUuids(call.cluster.ClusterID).rootToken;

/** Tokens that come from the configuration (root, anonymous) and have no stored record. */
function isConfiguredToken(call: Call): boolean {
  const b = builtInUuids(call.cluster.ClusterID);
  const token = call.caller.identity.tokenUuid;
  return token === b.rootToken || token === b.anonymousToken;
}

/** A configured token's record, reported from its identity (auth.md §4, §5). */
function configuredTokenRecord(call: Call): Record<string, unknown> {
  const { identity } = call.caller;
  return {
    kind: apiClientAuthorizations.kind,
    uuid: identity.tokenUuid,
    owner_uuid: identity.userUuid,
    api_token: identity.echoToken ?? null,
    api_client_uuid: identity.apiClientUuid,
    scopes: identity.scopes,
    expires_at: null,
  };
}

async function current(call: Call): Promise<Reply> {
  if (isConfiguredToken(call)) return { body: configuredTokenRecord(call) };
  const reply = await readObject(
    call,
    apiClientAuthorizationRules,
    call.caller.identity.tokenUuid ?? '',
  );
  return { body: { ...(reply.body as object), api_token: call.caller.identity.echoToken ?? null } };
}

/** Tokens of untrusted clients may only read their own record through `current` (auth.md §7). */
export function requireTrustedClient(call: Call): void {
  if (!call.caller.identity.apiClientTrusted) {
    throw new ForbiddenError(moreMsg.untrustedClient());
  }
}

export const apiClientAuthorizationRules: ResourceRules = {
  resource: apiClientAuthorizations,
  internalColumns: ['secret_digest', 'secret_ciphertext'],
  guard: requireTrustedClient,
  policy: {
    /** The caller's own tokens; the root token sees all (auth.md §6). */
    visible: (call) =>
      isRootToken(call)
        ? []
        : [sql`${raw('"api_client_authorizations"."owner_uuid"')} = ${call.caller.uuid}`],
    async create(call) {
      requireActive(call);
    },
    async write(call) {
      requireActive(call);
    },
  },
  async prepareCreate(ctx, row) {
    if ('api_token' in ctx.input)
      throw new UnprocessableError('api_token assignment not permitted');
    const owner = ctx.input['owner_uuid'];
    if (owner !== undefined && owner !== ctx.call.caller.uuid && !ctx.call.caller.isAdmin) {
      throw new ForbiddenError('Forbidden: only admins may create tokens for other users');
    }
    const secret = newSecret();
    ctx.call.locals[CREATED_SECRET] = { uuid: row['uuid'], secret };
    Object.assign(row, storedSecret(ctx.call.cluster.SystemRootToken, String(row['uuid']), secret));
    row['api_client_uuid'] = ctx.call.caller.identity.apiClientUuid;
    row['created_by_ip_address'] = ctx.call.caller.identity.clientAddress ?? null;
  },
  async prepareUpdate(ctx, current) {
    if ('api_token' in ctx.input)
      throw new UnprocessableError('api_token assignment not permitted');
    const owner = ctx.input['owner_uuid'];
    if (owner !== undefined && owner !== current['owner_uuid'] && !ctx.call.caller.isAdmin) {
      throw new ForbiddenError();
    }
  },
  /** The secret is shown once, in the answer to the create that made it. */
  computeAttribute(call, name, row: Row) {
    if (name !== 'api_token') return undefined;
    const made = call.locals[CREATED_SECRET] as { uuid: string; secret: string } | undefined;
    return made && made.uuid === row['uuid'] ? made.secret : null;
  },
  extraHandlers: { current },
};

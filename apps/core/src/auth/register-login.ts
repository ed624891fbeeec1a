import type { ClusterConfig } from '@svc/config';
import { builtInUuids, rootIdentity, type LoginIdentity } from '@svc/contract';
import { NotLoggedInError } from '@svc/errors';
import { statement, type Db } from '../db/db';
import { crudHandlers } from '../resources/common/crud';
import type { Row } from '../resources/common/row';
import { addSeconds, nowCanonical } from '../resources/common/row';
import { apiClientRules } from '../resources/api-clients/rules';
import { apiClientAuthorizationRules } from '../resources/api-client-authorizations/rules';
import { userRules } from '../resources/users/rules';
import { serviceCall } from '../service-call';

export type LoginDeps = { db: Db; cluster: Readonly<ClusterConfig> };

/** Preferred username, or the email's local part, reduced to `[A-Za-z][A-Za-z0-9]*`. */
export function baseUsername(login: LoginIdentity): string | null {
  const source = login.username ?? login.email?.split('@')[0] ?? '';
  const cleaned = source.replace(/[^A-Za-z0-9]/g, '').replace(/^[0-9]+/, '');
  return cleaned === '' ? null : cleaned;
}

/** `base`, or `base2`, `base3`, … : the first not taken by another user (auth.md §11). */
export async function freeUsername(tx: Db, base: string | null, self = ''): Promise<string | null> {
  if (base === null) return null;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}${n}`;
    const { rows } = await tx.query(
      statement('SELECT 1 FROM users WHERE username = $1 AND uuid <> $2', [candidate, self]),
    );
    if (rows.length === 0) return candidate;
  }
}

/**
 * auth.md §11 step 1: only local users (uuid prefix ClusterID) are candidates. A mirror of another
 * cluster's user is never taken over by a login here, whatever its email.
 */
async function findUser(deps: LoginDeps, tx: Db, login: LoginIdentity): Promise<Row | null> {
  const local = `${deps.cluster.ClusterID}-%`;
  const { rows } = login.email
    ? await tx.query<Row>(
        statement('SELECT uuid FROM users WHERE lower(email) = lower($1) AND uuid LIKE $2', [
          login.email,
          local,
        ]),
      )
    : await tx.query<Row>(
        statement('SELECT uuid FROM users WHERE username = $1 AND uuid LIKE $2', [
          login.username,
          local,
        ]),
      );
  if (rows.length > 1)
    throw new NotLoggedInError(`multiple users match email ${login.email ?? login.username ?? ''}`);
  return rows[0] ?? null;
}

/** The login's user (auth.md §11 step 1), or a new one (steps 2–3). Run inside a transaction. */
export async function findOrCreateUser(
  deps: LoginDeps,
  tx: Db,
  login: LoginIdentity,
): Promise<string> {
  const found = await findUser(deps, tx, login);
  if (found) return String(found['uuid']);
  const attrs = {
    email: login.email,
    first_name: login.firstName,
    last_name: login.lastName,
    username: await freeUsername(tx, baseUsername(login)),
    identity_url: login.identityUrl,
    is_admin: false,
    is_active: deps.cluster.Users.NewUsersAreActive,
  };
  const created = await crudHandlers(userRules).create!(
    serviceCall(deps, tx, 'svc.users.create', { attributes: attrs }),
  );
  return String((created.body as Row)['uuid']);
}

/** `scheme://host[:port]` of return_to, default port dropped, no trailing slash (auth.md §7). */
export const urlPrefixOf = (returnTo: string): string => new URL(returnTo).origin;

async function findOrCreateClient(
  deps: LoginDeps,
  tx: Db,
  returnTo: string | null,
): Promise<string> {
  if (returnTo === null) return builtInUuids(deps.cluster.ClusterID).internalApiClient;
  const prefix = urlPrefixOf(returnTo);
  const { rows } = await tx.query<Row>(
    statement('SELECT uuid FROM api_clients WHERE url_prefix = $1 ORDER BY created_at LIMIT 1', [
      prefix,
    ]),
  );
  if (rows[0]) return String(rows[0]['uuid']);
  const attrs = { name: prefix, url_prefix: prefix, is_trusted: false };
  const created = await crudHandlers(apiClientRules).create!(
    serviceCall(deps, tx, 'svc.api_clients.create', { attributes: attrs }),
  );
  return String((created.body as Row)['uuid']);
}

/**
 * A successful login: find or register the user, find or create the api_client of
 * `return_to`, and issue a token (scopes ["all"], Login.TokenLifetime) — in one transaction.
 */
export async function registerLogin(
  deps: LoginDeps,
  login: LoginIdentity,
  returnTo: string | null,
): Promise<Row> {
  return deps.db.transaction(async (tx) => {
    const userUuid = await findOrCreateUser(deps, tx, login);
    const clientUuid = await findOrCreateClient(deps, tx, returnTo);
    const lifetime = deps.cluster.Login.TokenLifetime;
    const attrs = {
      owner_uuid: userUuid,
      scopes: ['all'],
      expires_at: lifetime > 0 ? addSeconds(nowCanonical(), lifetime) : null,
    };
    return issueToken(deps, tx, attrs, clientUuid);
  });
}

/**
 * Creates a token record through the tokens' own rules, as the root token of the given client
 * (login tokens belong to the client of return_to, auth.md §7).
 */
export async function issueToken(
  deps: LoginDeps,
  tx: Db,
  attrs: Record<string, unknown>,
  clientUuid: string = builtInUuids(deps.cluster.ClusterID).internalApiClient,
): Promise<Row> {
  const identity = { ...rootIdentity(deps.cluster.ClusterID), apiClientUuid: clientUuid };
  const call = serviceCall(
    deps,
    tx,
    'svc.api_client_authorizations.create',
    { attributes: attrs },
    identity,
  );
  return (await crudHandlers(apiClientAuthorizationRules).create!(call)).body as Row;
}

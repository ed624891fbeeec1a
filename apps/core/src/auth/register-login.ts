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
import { baseUsername, freeUsername } from '../resources/users/username';
import { redirectedUser } from '../resources/users/merged';
import { serviceCall } from '../service-call';
import { sendQueuedMail } from '../mail/queue';

export type LoginDeps = { db: Db; cluster: Readonly<ClusterConfig> };

/** Preferred username, or the email's local part (auth.md §11 step 2). */
export const loginUsername = (login: LoginIdentity): string | null =>
  baseUsername(login.username ?? login.email?.split('@')[0]);

/**
 * auth.md §11 step 1: only local users (uuid prefix ClusterID) are candidates. A mirror of another
 * cluster's user is never taken over by a login here, whatever its email.
 */
async function findUser(deps: LoginDeps, tx: Db, login: LoginIdentity): Promise<string | null> {
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
  // A user merged with redirect logs in as the user it was merged into (docs/api/more-resources.md §5.6).
  const users = new Set(await Promise.all(rows.map((r) => redirectedUser(tx, String(r['uuid'])))));
  if (users.size > 1)
    throw new NotLoggedInError(`multiple users match email ${login.email ?? login.username ?? ''}`);
  return [...users][0] ?? null;
}

/** The login's user (auth.md §11 step 1), or a new one (steps 2–3). Run inside a transaction. */
export async function findOrCreateUser(
  deps: LoginDeps,
  tx: Db,
  login: LoginIdentity,
  locals: Record<string, unknown> = {},
): Promise<string> {
  const found = await findUser(deps, tx, login);
  if (found) return found;
  const attrs = {
    email: login.email,
    first_name: login.firstName,
    last_name: login.lastName,
    username: await freeUsername(
      tx,
      loginUsername(login),
      '',
      deps.cluster.Users.AutoSetupUsernameBlacklist,
    ),
    identity_url: login.identityUrl,
    is_admin: false,
    is_active: deps.cluster.Users.NewUsersAreActive,
  };
  const created = await crudHandlers(userRules).create!(
    serviceCall(deps, tx, 'svc.users.create', { attributes: attrs }, undefined, locals),
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
  const locals: Record<string, unknown> = {};
  const token = await deps.db.transaction(async (tx) => {
    const userUuid = await findOrCreateUser(deps, tx, login, locals);
    const clientUuid = await findOrCreateClient(deps, tx, returnTo);
    const lifetime = deps.cluster.Login.TokenLifetime;
    const attrs = {
      owner_uuid: userUuid,
      scopes: ['all'],
      expires_at: lifetime > 0 ? addSeconds(nowCanonical(), lifetime) : null,
    };
    return issueToken(deps, tx, attrs, clientUuid);
  });
  sendQueuedMail({ cluster: deps.cluster, locals });
  return token;
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

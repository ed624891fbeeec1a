import type { Identity } from '@svc/ids';
import { apiClientAuthorizations, apiClients, groups, links, users } from './registry';

const [user, group, link, client, token] = [
  users,
  groups,
  links,
  apiClients,
  apiClientAuthorizations,
].map((r) => r.infix);

const uuidsOf = (c: string) =>
  Object.freeze({
    systemUser: `${c}-${user}-000000000000000`,
    systemGroup: `${c}-${group}-000000000000000`,
    allUsersGroup: `${c}-${group}-fffffffffffffff`,
    anonymousUser: `${c}-${user}-anonymouspublic`,
    anonymousGroup: `${c}-${group}-anonymouspublic`,
    anonymousMembership: `${c}-${link}-anonymouspublic`,
    internalApiClient: `${c}-${client}-000000000000000`,
    rootToken: `${c}-${token}-000000000000000`,
    anonymousToken: `${c}-${token}-anonymouspublic`,
  } as const);

export type BuiltIns = ReturnType<typeof uuidsOf>;

/**
 * Per cluster id, made once: token checks ask for them on every request. Bounded: a cluster id
 * may come from a request's uuid, and those are not all configured clusters.
 */
const known = new Map<string, BuiltIns>();
const KNOWN_MAX = 256;

/** Uuids of the objects every cluster has from its first start (contract README). */
export function builtInUuids(c: string): BuiltIns {
  let uuids = known.get(c);
  if (!uuids) {
    uuids = uuidsOf(c);
    if (known.size < KNOWN_MAX) known.set(c, uuids);
  }
  return uuids;
}

/** Built-in objects cannot be deleted (403). */
export function isBuiltIn(clusterId: string, uuid: string): boolean {
  return (Object.values(builtInUuids(clusterId)) as string[]).includes(uuid);
}

/** The root token acts as the system user, trusted, with every scope (auth.md §4). */
export function rootIdentity(clusterId: string, echoToken?: string): Identity {
  const b = builtInUuids(clusterId);
  return {
    userUuid: b.systemUser,
    tokenUuid: b.rootToken,
    scopes: ['all'],
    apiClientUuid: b.internalApiClient,
    apiClientTrusted: true,
    isAdmin: true,
    isActive: true,
    ...(echoToken !== undefined ? { echoToken } : {}),
  };
}

/** The anonymous token: the inactive anonymous user, `GET /` only, untrusted (auth.md §5). */
export function anonymousIdentity(clusterId: string): Identity {
  return {
    userUuid: builtInUuids(clusterId).anonymousUser,
    tokenUuid: builtInUuids(clusterId).anonymousToken,
    scopes: ['GET /'],
    apiClientUuid: null,
    apiClientTrusted: false,
    isAdmin: false,
    isActive: false,
  };
}

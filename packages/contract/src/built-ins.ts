import type { Identity } from '@svc/ids';

/** Uuids of the objects every cluster has from its first start (contract README). */
export function builtInUuids(c: string) {
  return {
    systemUser: `${c}-tpzed-000000000000000`,
    systemGroup: `${c}-j7d0g-000000000000000`,
    allUsersGroup: `${c}-j7d0g-fffffffffffffff`,
    anonymousUser: `${c}-tpzed-anonymouspublic`,
    anonymousGroup: `${c}-j7d0g-anonymouspublic`,
    anonymousMembership: `${c}-o0j2j-anonymouspublic`,
    internalApiClient: `${c}-ozdt8-000000000000000`,
    rootToken: `${c}-gj3su-000000000000000`,
    anonymousToken: `${c}-gj3su-anonymouspublic`,
  } as const;
}

export type BuiltIns = ReturnType<typeof builtInUuids>;

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

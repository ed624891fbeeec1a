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
  } as const;
}

export type BuiltIns = ReturnType<typeof builtInUuids>;

/** Built-in objects cannot be deleted (403). */
export function isBuiltIn(clusterId: string, uuid: string): boolean {
  return (Object.values(builtInUuids(clusterId)) as string[]).includes(uuid);
}

import type { PrismaClient } from '../generated/prisma/client';
import { builtInUuids } from '@svc/contract';

/**
 * Creates the built-in objects of a cluster if they are missing (contract README,
 * "Built-in objects"). Idempotent; existing rows are left as they are.
 */
export async function seedBuiltIns(prisma: PrismaClient, clusterId: string): Promise<void> {
  const b = builtInUuids(clusterId);
  const now = new Date();
  const common = { owner_uuid: b.systemUser, created_at: now, modified_at: now };
  await prisma.$transaction([
    prisma.user.createMany({
      data: [
        { ...common, uuid: b.systemUser, username: 'root', is_admin: true, is_active: true },
        { ...common, uuid: b.anonymousUser, username: 'anonymous', is_active: false },
      ],
      skipDuplicates: true,
    }),
    prisma.group.createMany({
      data: [
        { ...common, uuid: b.systemGroup, name: 'System group', group_class: 'role' },
        { ...common, uuid: b.allUsersGroup, name: 'All users', group_class: 'role' },
        { ...common, uuid: b.anonymousGroup, name: 'Anonymous users', group_class: 'role' },
      ],
      skipDuplicates: true,
    }),
    prisma.link.createMany({
      data: [
        {
          ...common,
          uuid: b.anonymousMembership,
          link_class: 'permission',
          name: 'can_read',
          tail_uuid: b.anonymousUser,
          head_uuid: b.anonymousGroup,
        },
      ],
      skipDuplicates: true,
    }),
    prisma.apiClient.createMany({
      data: [{ ...common, uuid: b.internalApiClient, name: 'svc internal', is_trusted: true }],
      skipDuplicates: true,
    }),
    prisma.apiClientAuthorization.createMany({
      data: [
        {
          ...common,
          uuid: b.rootToken,
          api_client_uuid: b.internalApiClient,
          scopes: ['all'],
        },
      ],
      skipDuplicates: true,
    }),
  ]);
}

import { useQuery } from '@tanstack/react-query';
import { likePattern } from './contents';
import { typeOfUuid } from './ids';
import { userLabel } from './objects';
import { useSession } from './session';
import type { Link } from './types';

export const LEVELS = ['can_read', 'can_write', 'can_manage'] as const;
export type Level = (typeof LEVELS)[number];
export const LEVEL_LABELS: Record<Level, string> = {
  can_read: 'Can read',
  can_write: 'Can write',
  can_manage: 'Can manage',
};

/** Someone who can be given access: a user (of any cluster) or a role group. */
export interface Principal {
  uuid: string;
  label: string;
  detail: string;
}

/** The permission links on an object (permissions.md: its managers can read them). */
export function usePermissions(head: string) {
  const { client } = useSession();
  return useQuery({
    queryKey: ['permissions', head],
    queryFn: async () =>
      (
        await client.api.links.list({
          filters: [
            ['link_class', '=', 'permission'],
            ['head_uuid', '=', head],
          ],
          limit: 1000,
        })
      ).items as Link[],
  });
}

/** Names for principal uuids: users and role groups, on their own clusters. */
export function usePrincipalNames(uuids: string[]) {
  const { client } = useSession();
  return useQuery({
    queryKey: ['principal-names', [...uuids].sort()],
    enabled: uuids.length > 0,
    queryFn: async () => {
      const names = new Map<string, string>();
      await Promise.all(
        uuids.map(async (uuid) => {
          try {
            const o = (await client.call(`svc.${typeOfUuid(uuid)}.get`, { uuid })) as {
              uuid: string;
              name?: string | null;
            };
            names.set(uuid, typeOfUuid(uuid) === 'users' ? userLabel(o) : (o.name ?? uuid));
          } catch {
            names.set(uuid, uuid);
          }
        }),
      );
      return names;
    },
  });
}

/** Users (of `cluster`) and role groups whose names or emails match `text`. */
export function usePrincipalSearch(text: string, cluster: string) {
  const { client, config } = useSession();
  const remote = config !== undefined && cluster !== config.ClusterID;
  return useQuery({
    queryKey: ['principals', text, cluster],
    enabled: text.trim().length >= 1,
    queryFn: async (): Promise<Principal[]> => {
      const like = likePattern(text.trim());
      const clusterOpt = remote ? { cluster_id: cluster } : {};
      const [users, roles] = await Promise.all([
        client.api.users.list({
          filters: [['any', 'ilike', like]],
          limit: 20,
          ...clusterOpt,
        }),
        remote
          ? Promise.resolve({ items: [] })
          : client.api.groups.list({
              filters: [
                ['group_class', '=', 'role'],
                ['name', 'ilike', like],
              ],
              limit: 20,
            }),
      ]);
      return [
        ...users.items.map((u) => ({
          uuid: u.uuid,
          label: userLabel(u),
          detail: u.email ?? u.uuid,
        })),
        ...roles.items.map((g) => ({
          uuid: g.uuid,
          label: g.name ?? g.uuid,
          detail: 'Group',
        })),
      ];
    },
  });
}

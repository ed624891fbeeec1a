import { useQuery } from '@tanstack/react-query';
import { useSession } from './session';
import type { Container, ContainerRequest } from './types';

export { processStatus } from './process-status';

/** A request and its container, refreshed every few seconds until the request is Final. */
export function useProcess(uuid: string) {
  const { client } = useSession();
  return useQuery({
    queryKey: ['process', uuid],
    queryFn: async () => {
      const cr = (await client.api.containerRequests.get({ uuid })) as ContainerRequest;
      const container = cr.container_uuid
        ? ((await client.api.containers.get({ uuid: cr.container_uuid })) as Container)
        : null;
      return { cr, container };
    },
    refetchInterval: (q) => (q.state.data?.cr.state === 'Final' ? false : 2000),
  });
}

/** The requests made by a container (its child processes). */
export function useChildren(containerUuid: string | null | undefined) {
  const { client } = useSession();
  return useQuery({
    queryKey: ['children', containerUuid],
    enabled: Boolean(containerUuid),
    queryFn: async () =>
      (
        await client.api.containerRequests.list({
          filters: [['requesting_container_uuid', '=', containerUuid!]],
          order: ['created_at asc'],
          limit: 200,
        })
      ).items as ContainerRequest[],
  });
}

/** One page of the user's processes with their containers, newest first. */
export function useProcessList(page: number, pageSize: number) {
  const { client } = useSession();
  return useQuery({
    queryKey: ['processes', page, pageSize],
    refetchInterval: 5000,
    queryFn: async () => {
      const list = await client.api.containerRequests.list({
        order: ['created_at desc'],
        limit: pageSize,
        offset: (page - 1) * pageSize,
        count: 'exact',
      });
      const ids = list.items.map((r) => r.container_uuid).filter((u): u is string => Boolean(u));
      const containers =
        ids.length === 0
          ? []
          : (
              await client.api.containers.list({
                filters: [['uuid', 'in', ids]],
                limit: ids.length,
              })
            ).items;
      const byUuid = new Map(containers.map((c) => [c.uuid, c as Container]));
      return {
        total: list.items_available ?? 0,
        rows: (list.items as ContainerRequest[]).map((cr) => ({
          cr,
          container: cr.container_uuid ? byUuid.get(cr.container_uuid) : undefined,
        })),
      };
    },
  });
}

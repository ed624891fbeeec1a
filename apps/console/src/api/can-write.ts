import { useQuery } from '@tanstack/react-query';
import { typeOfUuid } from './ids';
import { useSignedIn } from './session';

/**
 * Whether the user may change a collection (which, unlike projects, carries no `can_write`):
 * an admin, its owner, a writer of the project that owns it, or the tail of a write or manage
 * link on it. Access through a group's link on it is not seen here; the server decides anyway,
 * and a refused change is shown with its message.
 */
export function useCanWriteCollection(c: { uuid: string; owner_uuid: string } | undefined) {
  const { client, user } = useSignedIn();
  return useQuery({
    queryKey: ['can-write', c?.uuid, c?.owner_uuid],
    enabled: c !== undefined,
    queryFn: async () => {
      if (user.is_admin || c!.owner_uuid === user.uuid) return true;
      if (typeOfUuid(c!.owner_uuid) === 'groups') {
        const owner = await client.api.groups.get({ uuid: c!.owner_uuid }).catch(() => null);
        if (owner?.can_write) return true;
      }
      const links = await client.api.links.list({
        filters: [
          ['link_class', '=', 'permission'],
          ['head_uuid', '=', c!.uuid],
          ['tail_uuid', '=', user.uuid],
          ['name', 'in', ['can_write', 'can_manage']],
        ],
      });
      return links.items.length > 0;
    },
  });
}

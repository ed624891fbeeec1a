import { useQuery } from '@tanstack/react-query';
import { typeOfUuid } from './ids';
import { userLabel } from './objects';
import { useSession } from './session';

export interface Crumb {
  uuid: string;
  label: string;
}

/**
 * The chain of owners above an object, from the top readable one down to its owner: a user's
 * home ("Home" for oneself) and the projects between. Stops where an owner cannot be read.
 */
export function useAncestors(ownerUuid: string | undefined, me: string) {
  const { client } = useSession();
  return useQuery({
    queryKey: ['ancestors', ownerUuid],
    enabled: ownerUuid !== undefined,
    queryFn: async () => {
      const chain: Crumb[] = [];
      let next: string | null = ownerUuid ?? null;
      for (let depth = 0; next && depth < 64; depth++) {
        const type = typeOfUuid(next);
        if (type !== 'groups' && type !== 'users') break;
        let o: { uuid: string; name?: string | null; owner_uuid?: string };
        try {
          o = (await client.call(`svc.${type}.get`, { uuid: next })) as typeof o;
        } catch {
          break;
        }
        if (type === 'users') {
          chain.unshift({ uuid: o.uuid, label: o.uuid === me ? 'Home' : `${userLabel(o)}’s home` });
          break;
        }
        chain.unshift({ uuid: o.uuid, label: o.name ?? o.uuid });
        next = o.owner_uuid ?? null;
      }
      return chain;
    },
  });
}

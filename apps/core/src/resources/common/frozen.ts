import { ForbiddenError } from '@svc/errors';
import { statement, type Db } from '../../db/db';
import { isGroupUuid } from '../../permissions/kinds';

interface GroupRow {
  owner_uuid: string;
  frozen_by_uuid: string | null;
}

/**
 * Refuses to put anything in a frozen project (groups.md §7): the owner, or a group above it,
 * has `frozen_by_uuid` set. Users are never frozen; the walk stops at the first non-group.
 */
export async function assertNotFrozen(tx: Db, clusterId: string, ownerUuid: string): Promise<void> {
  void clusterId;
  const seen = new Set<string>();
  let current: string | null = ownerUuid;
  while (current !== null && isGroupUuid(current) && !seen.has(current)) {
    seen.add(current);
    const found: { rows: GroupRow[] } = await tx.query<GroupRow>(
      statement(
        'SELECT owner_uuid, frozen_by_uuid FROM groups WHERE uuid = $1',
        [current],
        'frozen_walk',
      ),
    );
    const group: GroupRow | undefined = found.rows[0];
    if (!group) return;
    if (group.frozen_by_uuid) {
      throw new ForbiddenError('owner_uuid cannot be set or changed because new owner is frozen');
    }
    current = group.owner_uuid;
  }
}

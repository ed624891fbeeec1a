import { builtInUuids, collections } from '@svc/contract';
import { statement, type Db } from '../../db/db';

/**
 * User agreements (docs/api/more-resources.md §6): local collections that a `signature`/`require` link
 * of the system user points at; signatures are `signature`/`click` links of the system user
 * from a user. Shared by the agreements' own operations and by user activation.
 */
const AGREEMENTS = `
  SELECT DISTINCT l.head_uuid AS uuid FROM links l JOIN collections c ON c.uuid = l.head_uuid
   WHERE l.link_class = 'signature' AND l.name = 'require'
     AND l.owner_uuid = $1 AND l.tail_uuid = $1 AND l.head_uuid LIKE $2`;

/** Every agreement's uuid, sorted. */
export async function agreementUuids(db: Db, clusterId: string): Promise<string[]> {
  const system = builtInUuids(clusterId).systemUser;
  const { rows } = await db.query<{ uuid: string }>(
    statement(`${AGREEMENTS} ORDER BY 1`, [system, `${clusterId}-${collections.infix}-%`]),
  );
  return rows.map((r) => r.uuid);
}

/** The agreements a user has not signed, sorted. */
export async function unsignedAgreements(db: Db, clusterId: string, user: string) {
  const system = builtInUuids(clusterId).systemUser;
  const { rows } = await db.query<{ uuid: string }>(
    statement(
      `SELECT a.uuid FROM (${AGREEMENTS}) a
        WHERE NOT EXISTS (SELECT 1 FROM links s WHERE s.link_class = 'signature' AND s.name = 'click'
                           AND s.owner_uuid = $1 AND s.tail_uuid = $3 AND s.head_uuid = a.uuid)
        ORDER BY 1`,
      [system, `${clusterId}-${collections.infix}-%`, user],
    ),
  );
  return rows.map((r) => r.uuid);
}

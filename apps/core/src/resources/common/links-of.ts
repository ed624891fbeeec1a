import { statement, type Db } from '../../db/db';

/** Deleting an object deletes every link whose head or tail it is (other-resources.md §3). */
export async function deleteLinksOf(tx: Db, uuid: string): Promise<void> {
  await tx.query(statement('DELETE FROM links WHERE head_uuid = $1 OR tail_uuid = $1', [uuid]));
}

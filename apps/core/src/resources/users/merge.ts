import { collections, groups, msg, users, workflows } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import type { Call, Reply } from '../../call';
import { statement, type Db } from '../../db/db';
import { refreshPermissions } from '../../permissions/materialize';
import { renderAll } from '../common/crud';
import { nowCanonical, type Row } from '../common/row';
import { rowColumns, sql, toQuery } from '@svc/list-engine';
import { checkMerge, type MergePlan } from './merge-checks';
import { userRules } from './rules';

/** Objects that move to new_owner_uuid (users, tokens, keys, links and logs do not). */
const MOVED_TABLES = [
  'groups',
  'collections',
  'container_requests',
  'workflows',
  'containers',
  'virtual_machines',
  'api_clients',
];
const NAMED = [groups, collections, workflows];

/** A name that already exists under the new owner stops the merge (requests-and-errors.md §12). */
async function checkNameClashes(tx: Db, old: string, owner: string): Promise<void> {
  for (const r of NAMED) {
    const trash = 'trash_at' in r.attributes;
    const live = (a: string) =>
      trash ? `AND (${a}.trash_at IS NULL OR ${a}.trash_at > now())` : '';
    const { rows } = await tx.query<{ name: string }>(
      statement(
        `SELECT a.name FROM ${r.type} a JOIN ${r.type} b ON b.owner_uuid = $2 AND b.name = a.name
          WHERE a.owner_uuid = $1 AND a.name IS NOT NULL ${live('a')} ${live('b')} LIMIT 1`,
        [old, owner],
      ),
    );
    if (rows[0]) throw new UnprocessableError(msg.duplicateName(r.singular, rows[0].name, owner));
  }
}

/** The permission links a merge touches: their heads and tails need new rows. */
async function touchedEdges(tx: Db, o: string): Promise<{ heads: string[]; tails: string[] }> {
  const { rows } = await tx.query<{ head_uuid: string; tail_uuid: string }>(
    statement(
      `SELECT head_uuid, tail_uuid FROM links WHERE link_class = 'permission'
          AND (tail_uuid = $1 OR head_uuid = $1 OR owner_uuid = $1)
          AND head_uuid IS NOT NULL AND tail_uuid IS NOT NULL`,
      [o],
    ),
  );
  return { heads: rows.map((r) => r.head_uuid), tails: rows.map((r) => r.tail_uuid) };
}

/** Step 1: tokens, keys and links of the old user. */
async function moveCredentials(tx: Db, p: MergePlan, local: boolean): Promise<void> {
  const [o, n] = [p.old.uuid, p.next.uuid];
  const run = (text: string) => tx.query(statement(text, text.includes('$2') ? [o, n] : [o]));
  if (p.redirect && local) {
    await run('UPDATE api_client_authorizations SET owner_uuid = $2 WHERE owner_uuid = $1');
    await run('UPDATE authorized_keys SET owner_uuid = $2 WHERE owner_uuid = $1');
    await run(
      'UPDATE authorized_keys SET authorized_user_uuid = $2 WHERE authorized_user_uuid = $1',
    );
    await run('UPDATE links SET head_uuid = $2 WHERE head_uuid = $1');
  } else {
    await run('DELETE FROM api_client_authorizations WHERE owner_uuid = $1');
    await run('DELETE FROM authorized_keys WHERE (owner_uuid = $1 OR authorized_user_uuid = $1)');
  }
  await run('UPDATE links SET owner_uuid = $2 WHERE owner_uuid = $1');
  await run('UPDATE links SET tail_uuid = $2 WHERE tail_uuid = $1');
  // Two level links of one pair now: the lower goes (permissions.md §3).
  await tx.query(
    statement(
      `DELETE FROM links l USING links k
        WHERE l.link_class = 'permission' AND k.link_class = 'permission'
          AND l.tail_uuid = k.tail_uuid AND l.head_uuid = k.head_uuid AND l.uuid <> k.uuid
          AND l.name IN ('can_read', 'can_write', 'can_manage')
          AND k.name IN ('can_read', 'can_write', 'can_manage')
          AND (l.tail_uuid = $1 OR l.head_uuid = $1)
          AND (array_position(ARRAY['can_read','can_write','can_manage'], l.name::text),  l.uuid)
            < (array_position(ARRAY['can_read','can_write','can_manage'], k.name::text), k.uuid)`,
      [n],
    ),
  );
}

/**
 * `POST /users/merge` (docs/api/more-resources.md §5.6), in one transaction: the old user's tokens,
 * keys and permission links go to the new user (or are dropped), everything it owns moves to
 * new_owner_uuid, and with redirect_to_new_user the old account becomes an alias of the new one.
 */
export async function merge(call: Call): Promise<Reply> {
  const plan = await checkMerge(call);
  const [o, n] = [plan.old.uuid, plan.next.uuid];
  const local = o.startsWith(`${call.cluster.ClusterID}-`);
  const row = await call.db.transaction(async (tx) => {
    await tx.query(
      statement('SELECT 1 FROM users WHERE uuid = ANY($1::text[]) FOR UPDATE', [[o, n]]),
    );
    await checkNameClashes(tx, o, plan.newOwner);
    const before = await touchedEdges(tx, o);
    await moveCredentials(tx, plan, local);
    const now = nowCanonical();
    const { rows: moved } = await tx.query<{ uuid: string }>(
      statement(`UPDATE groups SET owner_uuid = $2 WHERE owner_uuid = $1 RETURNING uuid`, [
        o,
        plan.newOwner,
      ]),
    );
    for (const table of MOVED_TABLES.filter((t) => t !== 'groups')) {
      await tx.query(
        statement(`UPDATE ${table} SET owner_uuid = $2 WHERE owner_uuid = $1`, [o, plan.newOwner]),
      );
    }
    if (plan.redirect) {
      await tx.query(
        statement(
          `UPDATE users SET username = NULL, redirect_to_user_uuid = $2,
              modified_at = $3::text::timestamptz, modified_by_user_uuid = $4 WHERE uuid = $1`,
          [o, n, now, call.caller.uuid],
        ),
      );
    }
    const after = await touchedEdges(tx, n);
    const heads = [...before.heads, ...after.heads, ...moved.map((g) => g.uuid), o, n];
    const tails = [...before.tails, ...after.tails, o, n, plan.newOwner];
    await refreshPermissions(tx, call.cluster.ClusterID, heads, tails);
    const { rows } = await tx.query<Row>(
      toQuery(sql`SELECT ${rowColumns(users, null, false)} FROM users WHERE uuid = ${o}`),
    );
    return rows[0]!;
  });
  return { body: (await renderAll(call, userRules, [row], null, false))[0] };
}

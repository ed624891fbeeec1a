import { raw, sql, toQuery, type Sql } from '@svc/list-engine';
import { stringOption, type Call, type Reply } from '../../call';
import { requireAdmin } from '../../permissions/admin';
import { statement } from '../../db/db';
import { NotFoundError } from '@svc/errors';

/**
 * One item per (virtual machine, can_login link with a username, key of its user — or none
 * once when the user has none), in svc's fixed order (docs/api/more-resources.md §4.3).
 */
function loginsQuery(vmCondition: Sql): Sql {
  return sql`
    SELECT l.properties->>'username' AS username, v.hostname,
           CASE WHEN jsonb_typeof(l.properties->'groups') = 'array' THEN l.properties->'groups'
                ELSE '[]'::jsonb END AS groups,
           k.public_key, u.uuid AS user_uuid, v.uuid AS virtual_machine_uuid,
           k.uuid AS authorized_key_uuid
      FROM virtual_machines v
      JOIN links l ON l.head_uuid = v.uuid AND l.link_class = 'permission' AND l.name = 'can_login'
      JOIN users u ON u.uuid = l.tail_uuid AND u.redirect_to_user_uuid IS NULL
      LEFT JOIN authorized_keys k ON k.authorized_user_uuid = u.uuid
     WHERE ${vmCondition}
       AND jsonb_typeof(l.properties->'username') = 'string' AND l.properties->>'username' <> ''
     ORDER BY v.uuid, u.uuid, l.properties->>'username', k.uuid ${raw('ASC NULLS LAST')}`;
}

async function answer(call: Call, condition: Sql): Promise<Reply> {
  const { rows } = await call.db.query(toQuery(loginsQuery(condition)));
  return { body: { kind: 'svc#HashList', items: rows } };
}

/** `GET /virtual_machines/<uuid>/logins`: admins; the machine must be readable (404). */
export async function logins(call: Call): Promise<Reply> {
  requireAdmin(call);
  const uuid = stringOption(call, 'uuid');
  // Admins read every machine: readable here is existing.
  const { rows } = await call.db.query(
    statement('SELECT 1 FROM virtual_machines WHERE uuid = $1', [uuid]),
  );
  if (rows.length === 0) throw new NotFoundError();
  return answer(call, sql`v.uuid = ${uuid}`);
}

/** `GET /virtual_machines/get_all_logins`: admins, every machine. */
export async function getAllLogins(call: Call): Promise<Reply> {
  requireAdmin(call);
  return answer(call, sql`TRUE`);
}

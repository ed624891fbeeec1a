import { links } from '@svc/contract';
import { ForbiddenError, NotFoundError } from '@svc/errors';
import { parseSelect, rowColumns, sql, toQuery } from '@svc/list-engine';
import { arrayOption, stringOption, type Call, type Reply } from '../../call';
import { levelOf } from '../../permissions/level-of';
import { MANAGE } from '../../permissions/levels';
import { isReadable } from '../../permissions/readable';
import { renderObject } from '../common/render';
import type { Row } from '../common/row';

/**
 * `GET /permissions/<uuid>` (docs/api/more-resources.md §10.1): every permission link to an object the
 * caller manages, in the default order, all at once.
 */
export async function getPermissions(call: Call): Promise<Reply> {
  const uuid = stringOption(call, 'uuid');
  if (!(await isReadable(call.db, call, uuid))) throw new NotFoundError();
  if (!call.caller.isAdmin && (await levelOf(call.db, call.caller, uuid)) < MANAGE)
    throw new ForbiddenError();
  const select = parseSelect(links, arrayOption(call, 'select'));
  const { rows } = await call.db.query<Row>(
    toQuery(
      sql`SELECT ${rowColumns(links, select, true)} FROM links
           WHERE link_class = 'permission' AND head_uuid = ${uuid}
           ORDER BY modified_at DESC, uuid`,
    ),
  );
  const items = rows.map((r) => renderObject(links, r, select, true));
  const n = items.length;
  return { body: { kind: `${links.kind}List`, offset: 0, limit: n, items_available: n, items } };
}

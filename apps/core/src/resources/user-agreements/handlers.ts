import { builtInUuids, collections, links, moreMsg } from '@svc/contract';
import { NotFoundError, UnprocessableError } from '@svc/errors';
import { makeUuid } from '@svc/ids';
import { bindValue, parseSelect, rowColumns, sql, toQuery, type Sql } from '@svc/list-engine';
import { arrayOption, stringOption, type Call, type Handler, type Reply } from '../../call';
import { statement } from '../../db/db';
import { requireAdmin } from '../../permissions/admin';
import { agreementUuids } from '../common/agreements';
import { renderObject } from '../common/render';
import { nowCanonical, type Row } from '../common/row';
import { signedManifest } from '../common/manifest-signing';

/** A whole list, sorted by uuid: offset 0, limit and items_available the item count. */
function wholeList(kind: string, items: unknown[], count: boolean): Record<string, unknown> {
  return {
    kind,
    offset: 0,
    limit: items.length,
    ...(count ? { items_available: items.length } : {}),
    items,
  };
}

const wantsCount = (call: Call): boolean => call.options['count'] !== 'none';

async function isInvited(call: Call): Promise<boolean> {
  if (call.caller.isActive || call.cluster.Users.NewUsersAreActive) return true;
  const { rows } = await call.db.query(
    statement(
      `SELECT 1 FROM links WHERE link_class = 'permission' AND tail_uuid = $1 AND head_uuid = $2`,
      [call.caller.uuid, builtInUuids(call.cluster.ClusterID).allUsersGroup],
    ),
  );
  return rows.length > 0;
}

async function agreementRows(call: Call, uuids: readonly string[], select: string[] | null) {
  if (uuids.length === 0) return [];
  const { rows } = await call.db.query<Row>(
    toQuery(
      sql`SELECT ${rowColumns(collections, select, false)} FROM collections
           WHERE uuid = ANY(${bindValue([...uuids])}::text[]) ORDER BY uuid`,
    ),
  );
  return rows.map((row) => {
    const manifest = row['manifest_text'];
    const signed =
      typeof manifest === 'string'
        ? { ...row, manifest_text: signedManifest(call, manifest, row['trash_at']) }
        : row;
    return renderObject(collections, signed, select, false);
  });
}

/** `GET /user_agreements`: every agreement, whole, to invited callers (docs/api/more-resources.md §6). */
const list: Handler = async (call) => {
  const select = parseSelect(collections, arrayOption(call, 'select'));
  const uuids = (await isInvited(call))
    ? await agreementUuids(call.db, call.cluster.ClusterID)
    : [];
  const items = await agreementRows(call, uuids, select);
  return { body: wholeList(`${collections.kind}List`, items, wantsCount(call)) };
};

/** `GET /user_agreements/<uuid>`: admins; a collection that is no agreement is not found. */
const get: Handler = async (call) => {
  requireAdmin(call);
  const uuid = stringOption(call, 'uuid');
  const agreements = await agreementUuids(call.db, call.cluster.ClusterID);
  if (!agreements.includes(uuid)) throw new NotFoundError();
  const select = parseSelect(collections, arrayOption(call, 'select'));
  return { body: (await agreementRows(call, [uuid], select))[0] };
};

/** Agreements are managed as collections and links: admins get 422, others 403. */
const refused: Handler = async (call) => {
  requireAdmin(call);
  throw new UnprocessableError(moreMsg.manageAgreements());
};

const signatureWhere = (tail: string, system: string): Sql =>
  sql`link_class = 'signature' AND name = 'click' AND owner_uuid = ${system} AND tail_uuid = ${tail}`;

/** `GET /user_agreements/signatures`: the caller's (admins: any user's) signatures. */
const signatures: Handler = async (call) => {
  const wanted = stringOption(call, 'uuid');
  const tail = call.caller.isAdmin && wanted !== '' ? wanted : call.caller.uuid;
  const system = builtInUuids(call.cluster.ClusterID).systemUser;
  const select = parseSelect(links, arrayOption(call, 'select'));
  const { rows } = await call.db.query<Row>(
    toQuery(
      sql`SELECT ${rowColumns(links, select, true)} FROM links WHERE ${signatureWhere(tail, system)} ORDER BY uuid`,
    ),
  );
  const items = rows.map((r) => renderObject(links, r, select, true));
  return { body: wholeList(`${links.kind}List`, items, wantsCount(call)) };
};

/** `POST /user_agreements/sign`: a new signature of an agreement by the caller, active or not. */
const sign: Handler = async (call): Promise<Reply> => {
  const uuid = stringOption(call, 'uuid');
  const agreements = await agreementUuids(call.db, call.cluster.ClusterID);
  if (!agreements.includes(uuid)) throw new UnprocessableError(moreMsg.notAnAgreement(uuid));
  const c = call.cluster.ClusterID;
  const now = nowCanonical();
  const { rows } = await call.db.query<Row>(
    toQuery(
      sql`INSERT INTO links (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid,
                             link_class, name, tail_uuid, head_uuid, properties)
          VALUES (${makeUuid(c, links.infix)}, ${builtInUuids(c).systemUser}, ${now}::text::timestamptz,
                  ${now}::text::timestamptz, ${call.caller.uuid}, 'signature', 'click',
                  ${call.caller.uuid}, ${uuid}, '{}'::jsonb)
          RETURNING ${rowColumns(links, null, false)}`,
    ),
  );
  return { body: renderObject(links, rows[0]!, null, false) };
};

/** Every operation of `user_agreements` (standard five, signatures, sign). */
export const userAgreementHandlers: Readonly<Record<string, Handler>> = {
  list,
  get,
  create: refused,
  update: refused,
  delete: refused,
  signatures,
  sign,
};

import { resourceOfUuid, type ResourceSpec } from '@svc/contract';
import { NotFoundError } from '@svc/errors';
import { rowColumns, sql, tableOf, toQuery, type Sql } from '@svc/list-engine';
import type { Call } from '../call';
import { allOf } from '../permissions/caller-set';
import { isReadable } from '../permissions/readable';
import { collectionRules } from '../resources/collections/rules';
import { findVisible, renderAll } from '../resources/common/crud';
import { renderObject } from '../resources/common/render';
import type { Row } from '../resources/common/row';
import type { ResourceRules } from '../resources/common/rules';
import { containerRequestRules } from '../resources/container-requests/rules';
import { containerRules } from '../resources/containers/rules';
import { linkRules } from '../resources/links/rules';

/** Rules of the types a walk reads with their own visibility (others: permissions.md §7). */
const RULES: readonly ResourceRules[] = [
  collectionRules,
  containerRules,
  containerRequestRules,
  linkRules,
];
export const rulesOf = (r: ResourceSpec): ResourceRules | undefined =>
  RULES.find((x) => x.resource.type === r.type);

export const PDH_RE = /[a-f0-9]{32}\+[0-9]+/;
export const COLLECTION_UUID_RE = /[0-9a-z]{5}-4zz18-[0-9a-z]{15}/;
export const EMPTY_PDH = 'd41d8cd98f00b204e9800998ecf8427e+0';

/** A PDH without its hints (`<md5>+<size>`). */
export const barePdh = (pdh: string): string => PDH_RE.exec(pdh)?.[0] ?? pdh;

/** The rows of a type the caller reads (visible, not hidden) that meet `where`, by uuid. */
export async function readableRows(call: Call, rules: ResourceRules, where: Sql): Promise<Row[]> {
  const r = rules.resource;
  const { rows } = await call.db.query<Row>(
    toQuery(
      sql`SELECT ${rowColumns(r, null, false)} FROM ${tableOf(r)}
           WHERE ${where} AND ${allOf(rules.policy.visible(call, 'read'))} ORDER BY uuid`,
    ),
  );
  return rows;
}

/** One object as its own get renders it, or null when the caller cannot read it. */
export async function readableObject(call: Call, uuid: string): Promise<Row | null> {
  const r = resourceOfUuid(uuid);
  if (!r) return null;
  const rules = rulesOf(r);
  if (rules) {
    try {
      const row = await findVisible(call, rules, call.db, uuid, false);
      return (await renderAll(call, rules, [row], null, false))[0] as Row;
    } catch (err) {
      if (err instanceof NotFoundError) return null;
      throw err;
    }
  }
  if (!(await isReadable(call.db, call, uuid))) return null;
  const { rows } = await call.db.query<Row>(
    toQuery(sql`SELECT ${rowColumns(r, null, false)} FROM ${tableOf(r)} WHERE uuid = ${uuid}`),
  );
  return rows[0] ? renderObject(r, rows[0], null, false) : null;
}

/** Readable collections with a PDH, rendered, by uuid. */
export async function collectionsWithPdh(call: Call, pdh: string): Promise<Row[]> {
  const rows = await readableRows(call, collectionRules, sql`portable_data_hash = ${pdh}`);
  return (await renderAll(call, collectionRules, rows, null, false)) as Row[];
}

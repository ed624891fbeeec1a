import { bindValue, join, rowColumns, sql, tableOf, toQuery } from '@svc/list-engine';
import type { Call } from '../call';
import { isGroupUuid, isUserUuid } from '../permissions/kinds';
import { renderAll } from '../resources/common/crud';
import type { Row } from '../resources/common/row';
import type { ResourceRules } from '../resources/common/rules';
import { containerRules } from '../resources/containers/rules';
import { groupRules } from '../resources/groups/rules';
import { userRules } from '../resources/users/rules';

type Rendered = Record<string, unknown>;

/** The readable objects among `uuids`, of one type, rendered with all their attributes. */
async function readable(call: Call, rules: ResourceRules, uuids: readonly string[]) {
  if (uuids.length === 0) return [];
  const r = rules.resource;
  const extra = rules.renderColumns?.(call, r.type, null) ?? [];
  const scope = rules.policy.visible(call, 'read').map((c) => sql` AND (${c})`);
  const { rows } = await call.db.query<Row>(
    toQuery(
      sql`SELECT ${join([rowColumns(r, null, true), ...extra], ', ')} FROM ${tableOf(r)}
           WHERE ${tableOf(r)}."uuid" = ANY(${bindValue([...uuids])}::text[]) ${join(scope, '')}
           ORDER BY ${tableOf(r)}."uuid"`,
    ),
  );
  return renderAll(call, rules, rows, null, true);
}

/**
 * `included` (groups.md §3 step 9, §4): the readable owners of the returned items (users and
 * groups; `ownerFilter` narrows them), and the containers of returned container requests.
 * Each object once.
 */
export async function loadIncluded(
  call: Call,
  include: ReadonlySet<string>,
  items: readonly Row[],
  requests: readonly Row[],
  ownerFilter: (owner: Rendered) => boolean = () => true,
): Promise<Rendered[]> {
  const out: Rendered[] = [];
  if (include.has('owner_uuid')) {
    const owners = [...new Set(items.map((i) => String(i['owner_uuid'] ?? '')))];
    const users = await readable(call, userRules, owners.filter(isUserUuid));
    const groups = await readable(call, groupRules, owners.filter(isGroupUuid));
    out.push(...[...users, ...groups].filter(ownerFilter));
  }
  if (include.has('container_uuid')) {
    const containers = requests
      .map((i) => i['container_uuid'])
      .filter((u): u is string => typeof u === 'string' && u !== '');
    out.push(...(await readable(call, containerRules, [...new Set(containers)])));
  }
  return out;
}

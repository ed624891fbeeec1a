import { moreMsg, msg } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import { bindValue, join, raw, sql, type Sql } from '@svc/list-engine';

/** The attributes, operators and order keys computed_permissions accepts (§10.2). */
export const ATTRIBUTES = ['user_uuid', 'target_uuid'] as const;
const COMPARISONS: Record<string, string> = {
  '=': '=',
  '!=': '<>',
  '<>': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};
const isAttribute = (a: unknown): a is (typeof ATTRIBUTES)[number] =>
  (ATTRIBUTES as readonly unknown[]).includes(a);
const column = (a: string): Sql => raw(`"${a}"`);
const fail = (m: string): never => {
  throw new UnprocessableError(m);
};

/** One `[attribute, operator, operand]` condition as SQL; 422 for anything else. */
export function condition(f: unknown): Sql {
  if (!Array.isArray(f) || f.length !== 3)
    return fail(`Invalid filter ${JSON.stringify(f)}: must have exactly 3 elements`);
  const [attr, op, operand] = f as [unknown, unknown, unknown];
  if (!isAttribute(attr)) return fail(moreMsg.computedFilterAttribute(String(attr)));
  const opText = String(op).toLowerCase();
  if (opText === 'in' || opText === 'not in') {
    if (!Array.isArray(operand) || operand.some((v) => typeof v !== 'string'))
      return fail(`Invalid operand for '${opText}' in filter: must be an array of strings`);
    const any = sql`${column(attr)} = ANY(${bindValue(operand as string[])}::text[])`;
    return opText === 'in' ? any : sql`NOT (${any})`;
  }
  const sqlOp = COMPARISONS[opText];
  if (!sqlOp) return fail(moreMsg.computedFilterOperator(attr, String(op)));
  if (typeof operand !== 'string')
    return fail(`Invalid operand for '${opText}' in filter: must be a string`);
  return sql`${column(attr)} ${raw(sqlOp)} ${operand}`;
}

/** `where`: attribute → value (a string, or an array for `in`). */
export function whereConditions(where: Record<string, unknown>): Sql[] {
  return Object.entries(where).map(([attr, value]) =>
    condition([attr, Array.isArray(value) ? 'in' : '=', value]),
  );
}

/**
 * `ORDER BY` of `order` entries on the two uuids, user_uuid and target_uuid ascending completing
 * it; with `only`, keys outside it are left out (DISTINCT orders by its selection).
 */
export function orderBy(entries: readonly unknown[], only?: readonly string[]): Sql {
  const keys: string[] = [];
  for (const entry of entries) {
    const m = typeof entry === 'string' ? /^\s*(\S+)(?:\s+(asc|desc))?\s*$/i.exec(entry) : null;
    if (!m || !isAttribute(m[1])) return fail(msg.invalidOrderAttribute(String(entry)));
    if (!keys.some((k) => k.startsWith(`"${m[1]}"`)))
      keys.push(`"${m[1]}" ${(m[2] ?? 'asc').toUpperCase()}`);
  }
  for (const a of ATTRIBUTES)
    if (!keys.some((k) => k.startsWith(`"${a}"`))) keys.push(`"${a}" ASC`);
  const kept = keys.filter((k) => !only || only.some((f) => k.startsWith(`"${f}"`)));
  return raw(kept.length > 0 ? `ORDER BY ${kept.join(', ')}` : '');
}

export const allConditions = (conditions: readonly Sql[]): Sql =>
  conditions.length === 0 ? sql`TRUE` : join([...conditions], ' AND ');

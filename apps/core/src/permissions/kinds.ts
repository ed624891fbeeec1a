import { groups, infixOf, isUuidOf, users } from '@svc/contract';
import { raw, sql, type Sql } from '@svc/list-engine';

/**
 * "What kind of object is this uuid", for the permission graph, from the contract's registry:
 * in TypeScript, and as SQL text over a column (the infix is characters 7–11 of a uuid).
 * Generic permission code never spells a type code itself.
 */
export { infixOf };
export const isGroupUuid = (uuid: string): boolean => isUuidOf(groups, uuid);
export const isUserUuid = (uuid: string): boolean => isUuidOf(users, uuid);

const kindTest = (infix: string, column: string, negate: boolean): string =>
  `substr(${column}, 7, 5) ${negate ? '<>' : '='} '${infix}'`;

/** `<column>` names a group (`negate`: does not). Column text comes from code, never input. */
export const groupSql = (column: string, negate = false): string =>
  kindTest(groups.infix, column, negate);
export const userSql = (column: string, negate = false): string =>
  kindTest(users.infix, column, negate);

/** The same tests as fragments for the `sql` template. */
export const isGroupFragment = (column: string): Sql => raw(groupSql(column));
export const isUserFragment = (column: string): Sql => raw(userSql(column));
/** Does the uuid an expression yields name a user? */
export const isUserExpr = (expr: Sql): Sql =>
  sql`substr(${expr}, 7, 5) = ${raw(`'${users.infix}'`)}`;

/** Step 3: validated conditions → SQL. Nothing here can fail on client input. */
import { containers, quoteIdent } from '@svc/contract';
import { raw, sql, tableOf, type Sql } from '../sql';
import { or } from './bind';
import { searchSql } from './search';
import type { Validated } from './validate';

/** The request's container must exist and satisfy the condition (containers.md §1). */
function containerSql(v: Extract<Validated, { kind: 'container' }>): Sql {
  const outer = raw(`${quoteIdent(v.requests.type)}.${quoteIdent('container_uuid')}`);
  const table = tableOf(containers);
  const uuid = raw(`${quoteIdent(containers.type)}.${quoteIdent('uuid')}`);
  // Inside the subquery the condition's bare column names resolve to the containers table.
  return sql`EXISTS (SELECT 1 FROM ${table} WHERE ${uuid} = ${outer} AND ${toSql(v.inner)})`;
}

export function toSql(v: Validated): Sql {
  switch (v.kind) {
    case 'column':
      return v.rule.sql(v.column, v.value, v.op);
    case 'subproperty':
      return v.rule.sql(v.target, v.value, v.op);
    case 'search':
      return searchSql(v.resource, v.op, v.pattern);
    case 'any':
      return or(v.parts.map(toSql));
    case 'container':
      return containerSql(v);
    case 'expression': {
      const { left, comparison, right } = v.expression;
      // NULL on either side never matches, as plain SQL comparison has it.
      return sql`${left.expr} ${raw(comparison)} ${right.expr}`;
    }
  }
}

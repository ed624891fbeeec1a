/** Boolean expression filters: `"(replication_desired > replication_confirmed)"` (§13). */
import type { ResourceSpec } from '@svc/contract';
import { columnOf } from './columns';
import { fail, fmsg } from './messages';
import type { Column } from './types';

/**
 * The contract's exact form: one pair of parentheses around the whole, one operator, two word
 * tokens, ASCII spaces only. Anything else, however close, is refused.
 */
const EXPRESSION_RE = /^ *\( *([A-Za-z0-9_]+) *(<=|>=|<|>|=) *([A-Za-z0-9_]+) *\) *$/;

export type Comparison = '<=' | '>=' | '<' | '>' | '=';

export interface Expression {
  readonly left: Column;
  readonly comparison: Comparison;
  readonly right: Column;
}

/** Both names must be integer or float attributes: no literals, nothing else. */
function numericColumn(r: ResourceSpec, name: string): Column {
  const c = columnOf(r, name) ?? fail(fmsg.expressionAttribute(name));
  if (c.type !== 'integer' && c.type !== 'float') fail(fmsg.expressionNonNumeric(name));
  return c;
}

export function parseExpression(r: ResourceSpec, text: string): Expression {
  const m = EXPRESSION_RE.exec(text) ?? fail(fmsg.invalidExpression(text));
  const left = numericColumn(r, m[1]!);
  const right = numericColumn(r, m[3]!);
  return { left, comparison: m[2] as Comparison, right };
}

import {
  FILTER_OPERATORS,
  type AttrType,
  type FilterOperator,
  type ResourceSpec,
} from '@svc/contract';
import type { Sql } from '../sql';

/** The operator set of lists-and-filters.md §6, listed once in the contract. */
export const OPERATORS = FILTER_OPERATORS;
export type Operator = FilterOperator;

const OPERATOR_SET: ReadonlySet<string> = new Set(OPERATORS);

/** Operators are not case-sensitive (§5). */
export const toOperator = (op: unknown): Operator | null =>
  typeof op === 'string' && OPERATOR_SET.has(op.toLowerCase())
    ? (op.toLowerCase() as Operator)
    : null;

/** A `[attribute, operator, operand]` element, its parts still unchecked. */
export interface Condition {
  readonly attribute: unknown;
  readonly operator: unknown;
  readonly operand: unknown;
}

/** One filterable attribute: its name (for messages), type, resource and the SQL reading it. */
export interface Column {
  readonly resource: ResourceSpec;
  readonly name: string;
  readonly type: AttrType;
  readonly expr: Sql;
}

/** `<hash attribute>.<key>` (§11). */
export interface Subproperty {
  readonly column: Column;
  readonly key: string;
}

/** The operator as the client wrote it (for messages) and as it is understood. */
export interface Op {
  readonly given: string;
  readonly name: Operator;
}

/**
 * The operator table (lists-and-filters.md §6, §10, §11): per operator, the attribute types it
 * applies to, its rule on a whole attribute and on a subproperty (each rule carries its operand
 * validation and its SQL), and whether `any` accepts it.
 */
import { ATTR_TYPES, type AttrType } from '@svc/contract';
import {
  contains,
  equal,
  exists,
  inList,
  isA,
  like,
  notEqual,
  notInList,
  ordering,
  type Rule,
} from './column-ops';
import {
  subContains,
  subEqual,
  subExists,
  subIn,
  subLike,
  subNotEqual,
  subNotIn,
  subOrdering,
  type SubRule,
} from './subproperty-ops';
import type { Operator } from './types';

export interface OperatorSpec {
  /** Attribute types the operator applies to; any other pairing is a 422. */
  readonly types: readonly AttrType[];
  readonly column: Rule<unknown>;
  /** null: not a subproperty operator ("Invalid operator for subproperty search"). */
  readonly subproperty: SubRule<unknown> | null;
  /** Accepted with the `any` attribute. */
  readonly any: boolean;
}

const ALL: readonly AttrType[] = ATTR_TYPES;
const TEXT: readonly AttrType[] = ['string', 'text'];
const ORDERED: readonly AttrType[] = ['string', 'text', 'integer', 'float', 'datetime'];
const JSON_VALUED: readonly AttrType[] = ['hash', 'array'];

const equality = { types: ALL, column: notEqual, subproperty: subNotEqual, any: true };
const order = { types: ORDERED, column: ordering, subproperty: subOrdering, any: false };
const pattern = { types: TEXT, column: like, subproperty: subLike, any: true };

export const OPERATOR_TABLE: Readonly<Record<Operator, OperatorSpec>> = {
  '=': { types: ALL, column: equal, subproperty: subEqual, any: true },
  '!=': equality,
  '<>': equality,
  '<': order,
  '<=': order,
  '>': order,
  '>=': order,
  like: pattern,
  ilike: pattern,
  in: { types: ORDERED, column: inList, subproperty: subIn, any: true },
  'not in': { types: ORDERED, column: notInList, subproperty: subNotIn, any: true },
  is_a: { types: TEXT, column: isA, subproperty: null, any: false },
  exists: { types: JSON_VALUED, column: exists, subproperty: subExists, any: false },
  contains: { types: JSON_VALUED, column: contains, subproperty: subContains, any: false },
};

import type { containerRequests, containers } from '../registry';
import type { ApiObject } from '../types';

/** The operator set of lists-and-filters.md §6, lower case (the server also takes any case). */
export const FILTER_OPERATORS = [
  '=',
  '!=',
  '<>',
  '<',
  '<=',
  '>',
  '>=',
  'like',
  'ilike',
  'in',
  'not in',
  'is_a',
  'exists',
  'contains',
] as const;

export type FilterOperator = (typeof FILTER_OPERATORS)[number];

type Names<I> = keyof I & string;

/** Attributes of I holding a hash: they take the `<attribute>.<key>` form (§11). */
type HashNames<I> = {
  [K in Names<I>]-?: NonNullable<I[K]> extends unknown[]
    ? never
    : NonNullable<I[K]> extends Record<string, unknown>
      ? K
      : never;
}[Names<I>];

/** `container.<attr>` filters a container request on its container (containers.md §1). */
type Joined<I> =
  I extends ApiObject<typeof containerRequests>
    ? `container.${Names<ApiObject<typeof containers>>}`
    : never;

/**
 * What a filter condition may name on objects of type I: an attribute, a key of a hash
 * attribute (`properties.color`), or `any` (§10). A misspelled attribute does not compile.
 */
export type FilterAttribute<I> = Names<I> | `${HashNames<I>}.${string}` | 'any' | Joined<I>;

/** One element of `filters` (§5): a condition, or a boolean expression string (§13). */
export type FilterCondition<I> =
  readonly [FilterAttribute<I>, FilterOperator, unknown] | `(${string})`;

/** An `order` entry (§3): an attribute, optionally followed by a direction. */
export type OrderEntry<I> = Names<I> | `${Names<I>} ${'asc' | 'desc' | 'ASC' | 'DESC'}`;

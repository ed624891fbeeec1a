/**
 * Step 1: the shape of each `filters` element (lists-and-filters.md §5, §13, §15), before any
 * attribute or operator is looked at.
 */
import { fail, fmsg } from './messages';
import type { Condition } from './types';

export type Parsed =
  | { readonly kind: 'condition'; readonly condition: Condition }
  /** A boolean expression: a bare string, or `["(a > b)", "=", true]`. */
  | { readonly kind: 'expression'; readonly text: string };

/** §13: a condition whose attribute starts with optional spaces and `(` is an expression. */
const EXPRESSION_START = /^ *\(/;

export function parseElement(element: unknown): Parsed {
  if (typeof element === 'string') return { kind: 'expression', text: element };
  if (!Array.isArray(element)) return fail(fmsg.elementNotArray(element));
  if (element.length !== 3) return fail(fmsg.notThreeElements(element));
  const [attribute, operator, operand] = element as [unknown, unknown, unknown];
  if (typeof attribute === 'string' && EXPRESSION_START.test(attribute)) {
    if (operator !== '=' || (operand !== true && operand !== 'true')) {
      fail(fmsg.expressionTail(attribute));
    }
    return { kind: 'expression', text: attribute };
  }
  return { kind: 'condition', condition: { attribute, operator, operand } };
}

export const parseFilters = (filters: readonly unknown[] | undefined): Parsed[] =>
  (filters ?? []).map(parseElement);

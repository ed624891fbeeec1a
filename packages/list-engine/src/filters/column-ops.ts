/**
 * Conditions on a whole attribute (lists-and-filters.md §6–§9, §12). Each rule validates and
 * converts its operand, then compiles; the operator table in operators.ts pairs them.
 */
import { raw, sql, type Sql } from '../sql';
import { bind, bindArray, bindJson, castOf, or, TRUE } from './bind';
import { kindsOperand, isASql } from './is-a';
import { jsonType } from './json';
import { fail, fmsg } from './messages';
import { jsonValue, listText, scalarText } from './operands';
import type { Column, Operator } from './types';

export interface Rule<T> {
  /** Validates the operand (422 with the contract's message) and converts it. */
  operand(c: Column, x: unknown, op: string): T;
  /** The condition, from a converted operand. */
  sql(c: Column, v: T, op: Operator): Sql;
}

/** Erases a rule's operand type so rules of all operators fit one table. */
export const rule = <T>(r: Rule<T>): Rule<unknown> => r as Rule<unknown>;

/** §7: on api_client_authorizations.scopes element order does not matter either. */
const isUnorderedArray = (c: Column): boolean =>
  c.resource.type === 'api_client_authorizations' && c.name === 'scopes';

/** The array's elements in jsonb order, so two arrays of the same elements compare equal. */
const sortedElements = (e: Sql): Sql =>
  sql`(SELECT jsonb_agg(x ORDER BY x) FROM jsonb_array_elements(${e}) AS x)`;

/** A bound `=` / `!=` operand; null for a `null` operand (IS NULL / IS NOT NULL). */
function equalityOperand(c: Column, x: unknown, op: string): Sql | null {
  if (x === null) return null;
  if (c.type === 'hash' || c.type === 'array') return bindJson(jsonValue(c, x, op));
  return bind(scalarText(c, x, op), castOf(c.type));
}

export const equal = rule<Sql | null>({
  operand: equalityOperand,
  sql(c, v) {
    if (v === null) return sql`${c.expr} IS NULL`;
    // jsonb `=` already ignores key order; scopes ignore element order too.
    if (isUnorderedArray(c)) {
      return sql`(${c.expr} IS NOT NULL AND ${sortedElements(c.expr)} IS NOT DISTINCT FROM ${sortedElements(v)})`;
    }
    return sql`${c.expr} = ${v}`;
  },
});

/** §7: `!=` x also matches NULL, which is what IS DISTINCT FROM says. */
export const notEqual = rule<Sql | null>({
  operand: equalityOperand,
  sql(c, v) {
    if (v === null) return sql`${c.expr} IS NOT NULL`;
    if (isUnorderedArray(c)) {
      return sql`(${c.expr} IS NULL OR ${sortedElements(c.expr)} IS DISTINCT FROM ${sortedElements(v)})`;
    }
    return sql`${c.expr} IS DISTINCT FROM ${v}`;
  },
});

/** `<` `<=` `>` `>=`: NULL never matches, which plain SQL comparison already does. */
export const ordering = rule<Sql>({
  operand(c, x, op) {
    // Strings order only against strings (§6); numbers and times also take numeric/time text.
    if (x === null || ((c.type === 'string' || c.type === 'text') && typeof x !== 'string')) {
      fail(fmsg.operandType(jsonType(x), op));
    }
    return bind(scalarText(c, x, op), castOf(c.type));
  },
  sql: (c, v, op) => sql`${c.expr} ${raw(op)} ${v}`,
});

/**
 * PostgreSQL refuses a pattern ending in a lone `\` (an escape with nothing to escape); the
 * contract's `\` escapes the next character, and with none left we read it as a literal `\`.
 */
export function likePattern(p: string): string {
  const trailing = /\\*$/.exec(p)![0].length;
  return trailing % 2 === 1 ? `${p}\\` : p;
}

export const like = rule<Sql>({
  operand(_c, x, op) {
    if (typeof x !== 'string') return fail(fmsg.operandType(jsonType(x), op));
    return bind(likePattern(x));
  },
  sql: (c, v, op) => sql`${c.expr} ${raw(op === 'ilike' ? 'ILIKE' : 'LIKE')} ${v}`,
});

interface ListOperand {
  values: Sql | null;
  hasNull: boolean;
}

function listOperand(c: Column, x: unknown, op: string): ListOperand {
  const { values, hasNull } = listText(c, x, op);
  return { values: values.length > 0 ? bindArray(values, castOf(c.type)) : null, hasNull };
}

/** `in`: one array parameter (any length, one `$n`); a `null` element matches NULL (§8). */
export const inList = rule<ListOperand>({
  operand: listOperand,
  sql(c, { values, hasNull }) {
    const parts = values ? [sql`${c.expr} = ANY(${values})`] : [];
    return or(hasNull ? [...parts, sql`${c.expr} IS NULL`] : parts);
  },
});

/** `not in`: exactly the records `in` does not match, NULL included unless listed (§8). */
export const notInList = rule<ListOperand>({
  operand: listOperand,
  sql(c, { values, hasNull }) {
    if (!values) return hasNull ? sql`${c.expr} IS NOT NULL` : TRUE;
    const none = sql`${c.expr} <> ALL(${values})`;
    return hasNull ? sql`(${c.expr} IS NOT NULL AND ${none})` : sql`(${c.expr} IS NULL OR ${none})`;
  },
});

export const isA = rule({ operand: kindsOperand, sql: isASql });

/** `exists` on a hash (a top-level key) or an array (an element): jsonb `?`, GIN-indexable. */
export const exists = rule<Sql>({
  operand(_c, x, op) {
    if (typeof x !== 'string') return fail(fmsg.operandType(jsonType(x), op));
    return bind(x);
  },
  sql: (c, v) => sql`${c.expr} ? ${v}`,
});

/** `contains`: any of the strings is a key / an element: jsonb `?|`, GIN-indexable. */
export const contains = rule<Sql>({
  operand(_c, x) {
    const list = Array.isArray(x) ? (x as unknown[]) : [x];
    if (list.length === 0) fail(fmsg.containsEmpty());
    const bad = list.find((e) => typeof e !== 'string');
    if (bad !== undefined) fail(fmsg.containsElement(Array.isArray(x) ? bad : x));
    return bindArray(list as string[]);
  },
  sql: (c, v) => sql`${c.expr} ?| ${v}`,
});

/**
 * Conditions on one top-level key of a hash attribute (lists-and-filters.md §11). Where it is
 * exact, a condition is written with jsonb `@>` / `?` so a GIN index on the column serves it;
 * the others keep a `?` key test in front for the same reason.
 */
import { raw, sql, type Sql } from '../sql';
import { and, bind, bindArray, FALSE, objectJson, or, TRUE } from './bind';
import { likePattern } from './column-ops';
import { jsonType } from './json';
import { fail, fmsg } from './messages';
import type { Operator, Subproperty } from './types';

export interface SubRule<T> {
  operand(s: Subproperty, x: unknown, op: string): T;
  sql(s: Subproperty, v: T, op: Operator): Sql;
}

const subRule = <T>(r: SubRule<T>): SubRule<unknown> => r as SubRule<unknown>;

type Scalar = string | number | boolean;

const hasKey = (s: Subproperty): Sql => sql`${s.column.expr} ? ${bind(s.key)}`;
const valueAt = (s: Subproperty): Sql => sql`${s.column.expr} -> ${bind(s.key)}`;
/** The value's text (strings unquoted), compared by code point like every string (§3). */
const textAt = (s: Subproperty): Sql => sql`(${s.column.expr} ->> ${bind(s.key)}) COLLATE "C"`;
/**
 * `{"key": value}` is contained exactly when the key holds a value of the same JSON type equal
 * to it: jsonb containment does not let an array under a key contain a scalar.
 */
const holds = (s: Subproperty, value: unknown): Sql =>
  sql`${s.column.expr} @> ${bind(objectJson(s.key, value), 'jsonb')}`;

/** A missing key (or a NULL hash) also matches negations (§11). */
const not = (condition: Sql): Sql => sql`NOT coalesce(${condition}, false)`;

function typed<T>(allowed: readonly string[]) {
  return (_s: Subproperty, x: unknown, op: string): T =>
    allowed.includes(jsonType(x)) ? (x as T) : fail(fmsg.operandType(jsonType(x), op));
}

const scalarOperand = typed<Scalar>(['string', 'number', 'boolean']);

export const subEqual = subRule<Scalar>({ operand: scalarOperand, sql: holds });

export const subNotEqual = subRule<Scalar>({
  operand: scalarOperand,
  sql: (s, x) => not(holds(s, x)),
});

/** Only a value of the operand's JSON type compares: strings by code point, numbers numerically. */
export const subOrdering = subRule<string | number>({
  operand: typed(['string', 'number']),
  sql(s, x, op) {
    if (typeof x === 'string') {
      return and([
        hasKey(s),
        sql`jsonb_typeof(${valueAt(s)}) = 'string'`,
        sql`${textAt(s)} ${raw(op)} ${bind(x)}`,
      ]);
    }
    const number = bind(JSON.stringify(x), 'jsonb');
    return and([
      hasKey(s),
      sql`jsonb_typeof(${valueAt(s)}) = 'number'`,
      sql`${valueAt(s)} ${raw(op)} ${number}`,
    ]);
  },
});

/** Strings, and numbers as their decimal text. */
export const subLike = subRule<string>({
  operand: typed(['string']),
  sql(s, p, op) {
    const like = raw(op === 'ilike' ? 'ILIKE' : 'LIKE');
    return and([
      hasKey(s),
      sql`jsonb_typeof(${valueAt(s)}) IN ('string', 'number')`,
      sql`${textAt(s)} ${like} ${bind(likePattern(p))}`,
    ]);
  },
});

function listOperand(_s: Subproperty, x: unknown, op: string): (string | number)[] {
  if (!Array.isArray(x)) return fail(fmsg.operandType(jsonType(x), op));
  for (const e of x as unknown[]) {
    if (typeof e !== 'string' && typeof e !== 'number') fail(fmsg.operandType(jsonType(e), op));
  }
  return x as (string | number)[];
}

/** One `@> ANY(array)` parameter: a GIN bitmap scan handles the array, any length. */
const holdsAny = (s: Subproperty, values: readonly (string | number)[]): Sql =>
  sql`${s.column.expr} @> ANY(${bindArray(
    values.map((v) => objectJson(s.key, v)),
    'jsonb',
  )})`;

export const subIn = subRule<(string | number)[]>({
  operand: listOperand,
  sql: (s, values) => (values.length === 0 ? FALSE : holdsAny(s, values)),
});

export const subNotIn = subRule<(string | number)[]>({
  operand: listOperand,
  sql: (s, values) => (values.length === 0 ? TRUE : not(holdsAny(s, values))),
});

/** `true`: the key is present, even holding null. `false`: it is missing. */
export const subExists = subRule<boolean>({
  operand: (_s, x) => (typeof x === 'boolean' ? x : fail(fmsg.existsOperand(x))),
  sql: (s, present) => (present ? hasKey(s) : not(hasKey(s))),
});

/** The value equals the operand, or is an array with an element equal to it. */
export const subContains = subRule<string | number>({
  operand: typed(['string', 'number']),
  sql: (s, x) => or([holds(s, x), holds(s, [x])]),
});

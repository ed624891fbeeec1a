/**
 * Operand conversion (lists-and-filters.md §6, §7, §15): a JSON operand → the text PostgreSQL
 * parses in the column's type, or a 422 with the contract's message.
 */
import { parseTimestampInput } from '@svc/contract';
import { assertStorable, isPlainObject, jsonType, show } from './json';
import { fail, fmsg } from './messages';
import type { Column } from './types';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Canonical decimal text of a signed 64-bit integer, or null. */
export function integerText(x: unknown): string | null {
  let n: bigint;
  if (typeof x === 'number' && Number.isInteger(x)) n = BigInt(x);
  else if (typeof x === 'string' && /^[-+]?[0-9]+$/.test(x)) n = BigInt(x);
  else return null;
  return n >= INT64_MIN && n <= INT64_MAX ? n.toString() : null;
}

const NUMERIC_RE = /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/;

/** Decimal text of a finite double, or null (PostgreSQL refuses what overflows a double). */
export function floatText(x: unknown): string | null {
  const n =
    typeof x === 'number' ? x : typeof x === 'string' && NUMERIC_RE.test(x) ? Number(x) : NaN;
  return Number.isFinite(n) ? String(n) : null;
}

/** §6: the accepted boolean operands, compared in lower case. */
const BOOLEAN_TEXT: Readonly<Record<string, 'true' | 'false'>> = {
  true: 'true',
  t: 'true',
  '1': 'true',
  yes: 'true',
  y: 'true',
  false: 'false',
  f: 'false',
  '0': 'false',
  no: 'false',
  n: 'false',
};

export function booleanText(x: unknown): 'true' | 'false' | null {
  if (typeof x === 'boolean') return x ? 'true' : 'false';
  if (typeof x !== 'string') return null;
  return Object.hasOwn(BOOLEAN_TEXT, x.toLowerCase()) ? BOOLEAN_TEXT[x.toLowerCase()]! : null;
}

/** Strings as they are; numbers as their decimal text (§6 string column). */
function stringText(x: unknown, op: string): string {
  if (typeof x === 'string') return x;
  if (typeof x === 'number') return String(x);
  return fail(fmsg.operandType(jsonType(x), op));
}

function numberText(c: Column, x: unknown, op: string, inArray: boolean): string {
  if (typeof x !== 'string' && typeof x !== 'number') fail(fmsg.operandType(jsonType(x), op));
  if (c.type === 'float') return floatText(x) ?? fail(fmsg.floatOperand(show(x), c.name));
  const text = integerText(x);
  if (text !== null) return text;
  return fail(
    inArray ? fmsg.integerElement(show(x), c.name) : fmsg.integerOperand(show(x), c.name),
  );
}

function datetimeText(c: Column, x: unknown, op: string): string {
  if (typeof x !== 'string') return fail(fmsg.operandType(jsonType(x), op));
  return parseTimestampInput(x) ?? fail(fmsg.datetimeOperand(x, c.name));
}

/**
 * A hash or array operand: the value itself, or a string holding it as JSON (§6). Checked for
 * what PostgreSQL can hold before anything serializes it (JSON.stringify recurses).
 */
export function jsonValue(c: Column, x: unknown, op: string): unknown {
  const fits = (v: unknown) => (c.type === 'hash' ? isPlainObject(v) : Array.isArray(v));
  if (fits(x)) {
    assertStorable(op, x);
    return x;
  }
  if (typeof x !== 'string') return fail(fmsg.operandType(jsonType(x), op));
  let parsed: unknown;
  try {
    parsed = JSON.parse(x);
  } catch {
    parsed = undefined;
  }
  if (!fits(parsed)) fail(fmsg.jsonOperand(x, c.type as 'hash' | 'array', c.name));
  assertStorable(op, parsed);
  return parsed;
}

/**
 * A non-null scalar operand of a string, text, integer, float, datetime or boolean column, as
 * text in the column's type. `inArray`: it is an element of an `in` array (§7 names those).
 */
export function scalarText(c: Column, x: unknown, op: string, inArray = false): string {
  switch (c.type) {
    case 'string':
    case 'text':
      return stringText(x, op);
    case 'integer':
    case 'float':
      return numberText(c, x, op, inArray);
    case 'datetime':
      return datetimeText(c, x, op);
    case 'boolean':
      return booleanText(x) ?? fail(fmsg.booleanOperand(show(x), c.name));
    default:
      throw new Error(`${c.type} is not a scalar type`);
  }
}

/** `in` / `not in` operands: the non-null elements as text, and whether `null` was among them. */
export function listText(
  c: Column,
  x: unknown,
  op: string,
): { values: string[]; hasNull: boolean } {
  if (!Array.isArray(x)) return fail(fmsg.operandType(jsonType(x), op));
  const values: string[] = [];
  let hasNull = false;
  for (const element of x as unknown[]) {
    if (element === null) hasNull = true;
    else values.push(scalarText(c, element, op, true));
  }
  return { values, hasNull };
}

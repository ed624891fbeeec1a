/**
 * Step 2: each parsed element checked against the resource's attributes and the operator table,
 * its operand converted. The result holds everything compiling needs and nothing unchecked.
 */
import { containers, type ResourceSpec } from '@svc/contract';
import type { Rule } from './column-ops';
import { columnOf, stringColumns } from './columns';
import { parseExpression, type Expression } from './expression';
import { assertStorable, isStorableString, show } from './json';
import { fail, fmsg } from './messages';
import { OPERATOR_TABLE } from './operators';
import type { Parsed } from './parse';
import { isSearchPattern } from './search';
import type { SubRule } from './subproperty-ops';
import {
  toOperator,
  type Column,
  type Condition,
  type Op,
  type Operator,
  type Subproperty,
} from './types';

export type Validated =
  | { kind: 'column'; column: Column; op: Operator; rule: Rule<unknown>; value: unknown }
  | {
      kind: 'subproperty';
      target: Subproperty;
      op: Operator;
      rule: SubRule<unknown>;
      value: unknown;
    }
  | { kind: 'search'; resource: ResourceSpec; op: 'like' | 'ilike'; pattern: string }
  /** `any` with another operator: the same condition on every string attribute, ORed. */
  | { kind: 'any'; parts: Validated[] }
  /** `container.<attr>` on container requests: a condition on the request's container. */
  | { kind: 'container'; requests: ResourceSpec; inner: Validated }
  | { kind: 'expression'; expression: Expression };

function operatorOf(operator: unknown): Op {
  const name = toOperator(operator) ?? fail(fmsg.invalidOperator(show(operator)));
  return { given: operator as string, name };
}

function validateColumn(c: Column, op: Op, operand: unknown): Validated {
  const spec = OPERATOR_TABLE[op.name];
  if (!spec.types.includes(c.type)) {
    fail(
      c.type === 'boolean'
        ? fmsg.booleanOperator(op.given, c.name)
        : fmsg.attributeForOperator(c.name, op.given),
    );
  }
  const value = spec.column.operand(c, operand, op.given);
  assertStorable(op.given, operand);
  return { kind: 'column', column: c, op: op.name, rule: spec.column, value };
}

function validateAny(r: ResourceSpec, op: Op, operand: unknown): Validated {
  if (!OPERATOR_TABLE[op.name].any) fail(fmsg.attributeForOperator('any', op.given));
  if ((op.name === 'like' || op.name === 'ilike') && isSearchPattern(operand)) {
    assertStorable(op.given, operand);
    return { kind: 'search', resource: r, op: op.name, pattern: operand };
  }
  return { kind: 'any', parts: stringColumns(r).map((c) => validateColumn(c, op, operand)) };
}

/** §11: the key is everything after the first `.`, verbatim; `<uri>` loses its brackets. */
const keyOf = (rest: string): string =>
  rest.length >= 2 && rest.startsWith('<') && rest.endsWith('>') ? rest.slice(1, -1) : rest;

function validateSubproperty(
  c: Column,
  attribute: string,
  rest: string,
  condition: Condition,
): Validated {
  const name = toOperator(condition.operator);
  const rule = name ? OPERATOR_TABLE[name].subproperty : null;
  if (!name || !rule) return fail(fmsg.subpropertyOperator(show(condition.operator)));
  const key = keyOf(rest);
  if (!isStorableString(key)) fail(fmsg.invalidAttribute(attribute));
  const target = { column: c, key };
  const given = condition.operator as string;
  const value = rule.operand(target, condition.operand, given);
  assertStorable(given, condition.operand);
  return { kind: 'subproperty', target, op: name, rule, value };
}

function validateDotted(r: ResourceSpec, attribute: string, condition: Condition): Validated {
  const dot = attribute.indexOf('.');
  const prefix = attribute.slice(0, dot);
  const rest = attribute.slice(dot + 1);
  if (prefix === 'container' && r.type === 'container_requests') {
    const inner = validateCondition(containers, { ...condition, attribute: rest });
    return { kind: 'container', requests: r, inner };
  }
  const c = columnOf(r, prefix);
  if (!c || c.type !== 'hash') return fail(fmsg.subpropertyAttribute(prefix));
  return validateSubproperty(c, attribute, rest, condition);
}

export function validateCondition(r: ResourceSpec, condition: Condition): Validated {
  const { attribute, operator, operand } = condition;
  if (operator === '@@') fail(fmsg.fullTextSearch());
  if (typeof attribute !== 'string') return fail(fmsg.invalidAttribute(show(attribute)));
  if (attribute === 'any') return validateAny(r, operatorOf(operator), operand);
  if (attribute.includes('.')) return validateDotted(r, attribute, condition);
  const c = columnOf(r, attribute) ?? fail(fmsg.invalidAttribute(attribute));
  return validateColumn(c, operatorOf(operator), operand);
}

export const validateElement = (r: ResourceSpec, parsed: Parsed): Validated =>
  parsed.kind === 'expression'
    ? { kind: 'expression', expression: parseExpression(r, parsed.text) }
    : validateCondition(r, parsed.condition);

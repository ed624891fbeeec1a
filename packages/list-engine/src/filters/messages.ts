/**
 * The filter messages of lists-and-filters.md §5–§15, each defined once as a function of its
 * `<...>` parts. HTTP tests assert these texts literally, so change them only with the contract.
 */
import { UnprocessableError } from '@svc/errors';

/**
 * JSON for messages. JSON.parse takes any depth but JSON.stringify recurses, so a value nested
 * deeply enough to overflow the stack is shown by a placeholder rather than failing as a 500.
 */
export function toJson(x: unknown): string {
  try {
    return JSON.stringify(x) ?? String(x);
  } catch {
    return '"(nested too deeply to show)"';
  }
}

const json = toJson;

export const fmsg = {
  // §15 shape
  elementNotArray: (element: unknown) =>
    `Invalid element in filters array: ${json(element)} is not an array`,
  notThreeElements: (element: unknown) =>
    `Invalid filter ${json(element)}: must have exactly 3 elements`,
  // §15 attribute and operator
  invalidAttribute: (attr: string) => `Invalid attribute '${attr}' in filter`,
  invalidOperator: (op: string) => `Invalid operator '${op}'`,
  fullTextSearch: () => 'Full text search operator is no longer supported',
  attributeForOperator: (attr: string, op: string) =>
    `Invalid attribute '${attr}' for operator '${op}' in filter`,
  booleanOperator: (op: string, attr: string) =>
    `Invalid operator '${op}' for boolean attribute '${attr}'`,
  // §15 operands, §7 numbers
  operandType: (type: string, op: string) =>
    `Invalid operand type '${type}' for '${op}' operator in filters`,
  integerOperand: (x: string, attr: string) =>
    `Invalid operand '${x}' for integer attribute '${attr}'`,
  integerElement: (x: string, attr: string) =>
    `Invalid element '${x}' in array for integer attribute '${attr}'`,
  /** Not in the contract, which names no float message; built like the integer one. */
  floatOperand: (x: string, attr: string) => `Invalid operand '${x}' for float attribute '${attr}'`,
  booleanOperand: (x: string, attr: string) =>
    `Invalid operand '${x}' for boolean attribute '${attr}'`,
  datetimeOperand: (x: string, attr: string) =>
    `Invalid operand '${x}' for datetime attribute '${attr}'`,
  jsonOperand: (x: string, type: 'hash' | 'array', attr: string) =>
    `Invalid operand '${x}' for ${type} attribute '${attr}'`,
  // §11 subproperties
  subpropertyAttribute: (prefix: string) => `Invalid attribute '${prefix}' for subproperty filter`,
  subpropertyOperator: (op: string) => `Invalid operator for subproperty search '${op}'`,
  existsOperand: (operand: unknown) =>
    `Invalid operand '${json(operand)}' for 'exists' must be true or false`,
  // §12 contains
  containsEmpty: () => "Invalid operand '[]' for 'contains' operator",
  containsElement: (element: unknown) =>
    `Invalid element ${json(element)} in operand for "contains" operator (operand must be a string or array of strings)`,
  // §13 expressions
  invalidExpression: (text: string) => `Invalid expression filter '${text}'`,
  expressionTail: (text: string) =>
    `Invalid expression filter '${text}': subsequent elements must be ["=", true]`,
  expressionAttribute: (name: string) => `Invalid attribute in expression: '${name}'`,
  expressionNonNumeric: (name: string) => `Non-numeric attribute in expression: '${name}'`,
  /**
   * Not in the contract: values PostgreSQL cannot hold (a NUL character, an unpaired surrogate,
   * a number JSON cannot write) would otherwise fail in the database as a 500.
   */
  unstorableOperand: (op: string, reason: string) =>
    `Invalid operand for '${op}' operator in filters: ${reason}`,
  /** Not in the contract: PostgreSQL takes at most 65535 bound values per statement. */
  tooManyValues: (max: number) => `Invalid filters: more than ${max} values to compare`,
} as const;

/** Throws the 422 every filter error is. */
export function fail(message: string): never {
  throw new UnprocessableError(message);
}

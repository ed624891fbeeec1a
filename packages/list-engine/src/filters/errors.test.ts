import { UnprocessableError } from '@svc/errors';
import { collections, containerRequests, groups, users, type ResourceSpec } from '@svc/contract';
import { compileFilters, MAX_FILTER_VALUES } from '.';

/** The 422 message for one filters array (or where object); fails if there is none. */
function error(
  r: ResourceSpec,
  filters: unknown[] | undefined,
  where?: Record<string, unknown>,
): string {
  try {
    compileFilters(r, filters, where);
  } catch (e) {
    if (e instanceof UnprocessableError) {
      expect(e.status).toBe(422);
      return e.messages.join('|');
    }
    throw e;
  }
  throw new Error(`no error for ${JSON.stringify(filters)}`);
}

type Case = [unknown, string];
const each = (r: ResourceSpec, cases: Case[]) =>
  it.each(cases)('%j', (element, message) => expect(error(r, [element])).toBe(message));

describe('§15 shape', () => {
  each(collections, [
    [5, 'Invalid element in filters array: 5 is not an array'],
    [null, 'Invalid element in filters array: null is not an array'],
    [{ a: 1 }, 'Invalid element in filters array: {"a":1} is not an array'],
    [[], 'Invalid filter []: must have exactly 3 elements'],
    [['name', '='], 'Invalid filter ["name","="]: must have exactly 3 elements'],
    [['name', '=', 'a', 'b'], 'Invalid filter ["name","=","a","b"]: must have exactly 3 elements'],
  ]);
});

describe('§15 attributes and operators', () => {
  each(collections, [
    [['bogus', '=', 'x'], "Invalid attribute 'bogus' in filter"],
    [[5, '=', 'x'], "Invalid attribute '5' in filter"],
    [[null, '=', 'x'], "Invalid attribute 'null' in filter"],
    [[['name'], '=', 'x'], `Invalid attribute '["name"]' in filter`],
    [['constructor', '=', 'x'], "Invalid attribute 'constructor' in filter"],
    [['toString', '=', 'x'], "Invalid attribute 'toString' in filter"],
    [['kind', '=', 'x'], "Invalid attribute 'kind' in filter"],
    [['etag', '=', 'x'], "Invalid attribute 'etag' in filter"],
    [['', '=', 'x'], "Invalid attribute '' in filter"],
    [['name', '###', 'x'], "Invalid operator '###'"],
    [['name', 5, 'x'], "Invalid operator '5'"],
    [['name', null, 'x'], "Invalid operator 'null'"],
    [['name', 'not  in', []], "Invalid operator 'not  in'"],
    [['name', '@@', 'x'], 'Full text search operator is no longer supported'],
    [['any', '@@', 'x'], 'Full text search operator is no longer supported'],
    [['name', '>', null], "Invalid operand type 'null' for '>' operator in filters"],
    [['name', '=', { a: 1 }], "Invalid operand type 'object' for '=' operator in filters"],
    [['name', '=', ['a']], "Invalid operand type 'array' for '=' operator in filters"],
    [['name', '=', true], "Invalid operand type 'boolean' for '=' operator in filters"],
    [['name', '<', 5], "Invalid operand type 'number' for '<' operator in filters"],
    [['name', 'like', 5], "Invalid operand type 'number' for 'like' operator in filters"],
    [['name', 'ILIKE', null], "Invalid operand type 'null' for 'ILIKE' operator in filters"],
    [['name', 'in', 'a'], "Invalid operand type 'string' for 'in' operator in filters"],
    [['name', 'not in', null], "Invalid operand type 'null' for 'not in' operator in filters"],
    [['name', 'in', ['a', true]], "Invalid operand type 'boolean' for 'in' operator in filters"],
    [['name', 'in', [['a']]], "Invalid operand type 'array' for 'in' operator in filters"],
    [['version', 'like', '1%'], "Invalid attribute 'version' for operator 'like' in filter"],
    [
      ['modified_at', 'ilike', '2024%'],
      "Invalid attribute 'modified_at' for operator 'ilike' in filter",
    ],
    [['properties', '<', '{}'], "Invalid attribute 'properties' for operator '<' in filter"],
    [['properties', 'in', []], "Invalid attribute 'properties' for operator 'in' in filter"],
    [
      ['storage_classes_desired', 'like', 'x'],
      "Invalid attribute 'storage_classes_desired' for operator 'like' in filter",
    ],
    [['version', 'is_a', 'svc#group'], "Invalid attribute 'version' for operator 'is_a' in filter"],
    [['name', 'exists', 'x'], "Invalid attribute 'name' for operator 'exists' in filter"],
    [['version', 'contains', 'x'], "Invalid attribute 'version' for operator 'contains' in filter"],
    [
      ['preserve_version', '<', true],
      "Invalid operator '<' for boolean attribute 'preserve_version'",
    ],
    [
      ['preserve_version', 'in', [true]],
      "Invalid operator 'in' for boolean attribute 'preserve_version'",
    ],
    [['is_trashed', 'like', 't'], "Invalid operator 'like' for boolean attribute 'is_trashed'"],
    [
      ['preserve_version', 'exists', 'x'],
      "Invalid operator 'exists' for boolean attribute 'preserve_version'",
    ],
  ]);
});

describe('§7 and §15 operand values', () => {
  each(collections, [
    [['version', '=', 1.5], "Invalid operand '1.5' for integer attribute 'version'"],
    [['version', '=', 'abc'], "Invalid operand 'abc' for integer attribute 'version'"],
    [['version', '=', '1.0'], "Invalid operand '1.0' for integer attribute 'version'"],
    [
      ['version', '<', '9223372036854775808'],
      "Invalid operand '9223372036854775808' for integer attribute 'version'",
    ],
    [
      ['version', '>', '-9223372036854775809'],
      "Invalid operand '-9223372036854775809' for integer attribute 'version'",
    ],
    [
      ['version', '=', 2 ** 63],
      "Invalid operand '9223372036854776000' for integer attribute 'version'",
    ],
    [['version', '=', true], "Invalid operand type 'boolean' for '=' operator in filters"],
    [['version', '<', null], "Invalid operand type 'null' for '<' operator in filters"],
    [['version', 'in', [1, 'x']], "Invalid element 'x' in array for integer attribute 'version'"],
    [
      ['version', 'not in', [1.25]],
      "Invalid element '1.25' in array for integer attribute 'version'",
    ],
    [['version', 'in', [{}]], "Invalid operand type 'object' for 'in' operator in filters"],
    [
      ['preserve_version', '=', 'maybe'],
      "Invalid operand 'maybe' for boolean attribute 'preserve_version'",
    ],
    [['preserve_version', '=', 1], "Invalid operand '1' for boolean attribute 'preserve_version'"],
    [
      ['preserve_version', '=', ['t']],
      `Invalid operand '["t"]' for boolean attribute 'preserve_version'`,
    ],
    [
      ['modified_at', '=', 'yesterday'],
      "Invalid operand 'yesterday' for datetime attribute 'modified_at'",
    ],
    [
      ['modified_at', '<', '2024-02-30T00:00:00Z'],
      "Invalid operand '2024-02-30T00:00:00Z' for datetime attribute 'modified_at'",
    ],
    [
      ['modified_at', 'in', ['2024-01-01', 'x']],
      "Invalid operand 'x' for datetime attribute 'modified_at'",
    ],
    [['modified_at', '=', 1714564800], "Invalid operand type 'number' for '=' operator in filters"],
    [['properties', '=', 'not json'], "Invalid operand 'not json' for hash attribute 'properties'"],
    [['properties', '=', '[1]'], "Invalid operand '[1]' for hash attribute 'properties'"],
    [['properties', '=', ['a']], "Invalid operand type 'array' for '=' operator in filters"],
    [['properties', '!=', 5], "Invalid operand type 'number' for '!=' operator in filters"],
    [
      ['storage_classes_desired', '=', '{"a":1}'],
      `Invalid operand '{"a":1}' for array attribute 'storage_classes_desired'`,
    ],
    [
      ['storage_classes_desired', '=', { a: 1 }],
      "Invalid operand type 'object' for '=' operator in filters",
    ],
    [['properties', 'exists', 5], "Invalid operand type 'number' for 'exists' operator in filters"],
  ]);
  it('has a message for floats too', () => {
    expect(error(containerRequests, [['cumulative_cost', '<', 'cheap']])).toBe(
      "Invalid operand 'cheap' for float attribute 'cumulative_cost'",
    );
    expect(error(containerRequests, [['cumulative_cost', '<', '1e400']])).toBe(
      "Invalid operand '1e400' for float attribute 'cumulative_cost'",
    );
  });
});

describe('§9 is_a', () => {
  each(collections, [
    [['owner_uuid', 'is_a', 5], "Invalid operand type 'number' for 'is_a' operator in filters"],
    [['owner_uuid', 'is_a', null], "Invalid operand type 'null' for 'is_a' operator in filters"],
    [
      ['owner_uuid', 'is_a', { k: 1 }],
      "Invalid operand type 'object' for 'is_a' operator in filters",
    ],
    [
      ['uuid', 'is_a', ['svc#group', 7]],
      "Invalid operand type 'number' for 'is_a' operator in filters",
    ],
  ]);
});

describe('§10 any', () => {
  each(groups, [
    [['any', '<', 'x'], "Invalid attribute 'any' for operator '<' in filter"],
    [['any', 'exists', 'x'], "Invalid attribute 'any' for operator 'exists' in filter"],
    [['any', 'contains', 'x'], "Invalid attribute 'any' for operator 'contains' in filter"],
    [['any', 'is_a', 'svc#group'], "Invalid attribute 'any' for operator 'is_a' in filter"],
    [['any', 'bogus', 'x'], "Invalid operator 'bogus'"],
    [['any', 'like', 5], "Invalid operand type 'number' for 'like' operator in filters"],
    [['any', 'in', 'x'], "Invalid operand type 'string' for 'in' operator in filters"],
  ]);
});

describe('§11 subproperties', () => {
  each(collections, [
    [
      ['properties.prop1', 'exists', null],
      "Invalid operand 'null' for 'exists' must be true or false",
    ],
    [
      ['properties.prop1', 'exists', 'true'],
      `Invalid operand '"true"' for 'exists' must be true or false`,
    ],
    [['puppies.prop1', '=', 'x'], "Invalid attribute 'puppies' for subproperty filter"],
    [['name.prop1', '=', 'x'], "Invalid attribute 'name' for subproperty filter"],
    [
      ['storage_classes_desired.x', '=', 'x'],
      "Invalid attribute 'storage_classes_desired' for subproperty filter",
    ],
    [['container.state', '=', 'x'], "Invalid attribute 'container' for subproperty filter"],
    [['.x', '=', 'x'], "Invalid attribute '' for subproperty filter"],
    [['properties.prop1', '###', 'x'], "Invalid operator for subproperty search '###'"],
    [['properties.prop1', 'is_a', 'svc#group'], "Invalid operator for subproperty search 'is_a'"],
    [['properties.prop1', 5, 'x'], "Invalid operator for subproperty search '5'"],
    [['properties.prop1', '@@', 'x'], 'Full text search operator is no longer supported'],
    [['properties.prop1', '=', null], "Invalid operand type 'null' for '=' operator in filters"],
    [
      ['properties.prop1', '!=', ['x']],
      "Invalid operand type 'array' for '!=' operator in filters",
    ],
    [['properties.prop1', '<', true], "Invalid operand type 'boolean' for '<' operator in filters"],
    [
      ['properties.prop1', 'like', 5],
      "Invalid operand type 'number' for 'like' operator in filters",
    ],
    [['properties.prop1', 'in', 'x'], "Invalid operand type 'string' for 'in' operator in filters"],
    [
      ['properties.prop1', 'not in', ['x', null]],
      "Invalid operand type 'null' for 'not in' operator in filters",
    ],
    [
      ['properties.prop1', 'contains', { a: 1 }],
      "Invalid operand type 'object' for 'contains' operator in filters",
    ],
  ]);
  it('takes container.<attr> only on container requests, checked against containers', () => {
    expect(error(containerRequests, [['container.bogus', '=', 'x']])).toBe(
      "Invalid attribute 'bogus' in filter",
    );
    expect(error(containerRequests, [['container.secret_mounts', '=', {}]])).toBe(
      "Invalid attribute 'secret_mounts' in filter",
    );
  });
  it('never filters on a secret attribute', () => {
    expect(error(containerRequests, [['secret_mounts.x', '=', 'x']])).toBe(
      "Invalid attribute 'secret_mounts' for subproperty filter",
    );
    expect(error(containerRequests, [['runtime_token', '=', 'x']])).toBe(
      "Invalid attribute 'runtime_token' in filter",
    );
  });
});

describe('§12 contains', () => {
  each(collections, [
    [['storage_classes_desired', 'contains', []], "Invalid operand '[]' for 'contains' operator"],
    ...[[[]], [['x']], [{ a: 1 }], { a: 1 }, 5, null, ['a', 5]].map((operand): Case => [
      ['storage_classes_desired', 'contains', operand],
      `Invalid element ${JSON.stringify(Array.isArray(operand) ? operand.find((e) => typeof e !== 'string') : operand)} in operand for "contains" operator (operand must be a string or array of strings)`,
    ]),
  ]);
});

describe('§13 expressions', () => {
  each(collections, [
    [
      'replication_desired > replication_confirmed',
      "Invalid expression filter 'replication_desired > replication_confirmed'",
    ],
    ['((a > b))', "Invalid expression filter '((a > b))'"],
    ['(a > b) (c > d)', "Invalid expression filter '(a > b) (c > d)'"],
    ['(a > b > c)', "Invalid expression filter '(a > b > c)'"],
    ['(a\t> b)', "Invalid expression filter '(a\t> b)'"],
    ['(a != b)', "Invalid expression filter '(a != b)'"],
    ['', "Invalid expression filter ''"],
    ['(replication_desired > 2)', "Invalid attribute in expression: '2'"],
    ['(bogus > replication_desired)', "Invalid attribute in expression: 'bogus'"],
    ['(name > replication_desired)', "Non-numeric attribute in expression: 'name'"],
    ['(replication_desired > modified_at)', "Non-numeric attribute in expression: 'modified_at'"],
    [
      ['(a > b)', '!=', true],
      `Invalid expression filter '(a > b)': subsequent elements must be ["=", true]`,
    ],
    [
      ['(a > b)', '=', false],
      `Invalid expression filter '(a > b)': subsequent elements must be ["=", true]`,
    ],
    [
      ['  (a > b)', '=', 'yes'],
      `Invalid expression filter '  (a > b)': subsequent elements must be ["=", true]`,
    ],
    [['(a > b', '=', true], "Invalid expression filter '(a > b'"],
  ]);
});

describe('values PostgreSQL cannot hold', () => {
  each(collections, [
    [
      ['name', '=', 'a\u0000b'],
      "Invalid operand for '=' operator in filters: strings must not contain NUL characters",
    ],
    [
      ['name', 'in', ['\ud800']],
      "Invalid operand for 'in' operator in filters: strings must not contain unpaired surrogates",
    ],
    [
      ['properties', '=', { 'a\u0000': 1 }],
      "Invalid operand for '=' operator in filters: strings must not contain NUL characters",
    ],
    [
      ['properties.a', '=', Infinity],
      "Invalid operand for '=' operator in filters: numbers must be finite",
    ],
    [['properties.a\u0000', '=', 'x'], "Invalid attribute 'properties.a\u0000' in filter"],
    [
      ['any', 'ilike', '%\u0000%'],
      "Invalid operand for 'ilike' operator in filters: strings must not contain NUL characters",
    ],
  ]);
  it('refuses JSON nested too deeply for PostgreSQL', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = { a: deep };
    expect(error(collections, [['properties', '=', deep]])).toBe(
      "Invalid operand for '=' operator in filters: values must not nest deeper than 64 levels",
    );
  });
  it('refuses more values than a statement can bind', () => {
    const filters = Array.from({ length: MAX_FILTER_VALUES + 1 }, () => ['name', '=', 'x']);
    expect(error(collections, filters)).toBe(
      `Invalid filters: more than ${MAX_FILTER_VALUES} values to compare`,
    );
  });
});

describe('where (legacy)', () => {
  it('checks operands of known attributes', () => {
    expect(error(collections, undefined, { version: 'x' })).toBe(
      "Invalid operand 'x' for integer attribute 'version'",
    );
    expect(error(collections, undefined, { storage_classes_desired: ['a'] })).toBe(
      "Invalid attribute 'storage_classes_desired' for operator 'in' in filter",
    );
  });
  it('ignores other shapes of any', () => {
    expect(compileFilters(users, undefined, { any: 'x' })).toBeNull();
    expect(compileFilters(users, undefined, { any: ['ilike', 'x'] })).toBeNull();
  });
});

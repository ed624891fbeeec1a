/** The worked examples of lists-and-filters.md §7–§14, end to end through the gateway. */
import {
  collections,
  containerRequests,
  containers,
  groups,
  type ResourceSpec,
} from '@svc/contract';
import { committedRequest, makeImage, uncommittedRequest } from '../harness/containers';
import { useDeployment } from '../harness/deployment';

const d = useDeployment();
const root = () => d.current.root;
const ERROR_TOKEN = /^\d+\+[0-9a-f]{8}$/;

/** Uuid → the test's name for it, to read results as names. */
const label = new Map<string, string>();
let project: string;

async function create(
  r: ResourceSpec,
  name: string,
  attrs: Record<string, unknown>,
): Promise<string> {
  const res = await root().resource(r).create(attrs);
  if (res.status !== 200) throw new Error(`creating ${name}: ${res.status} ${res.text}`);
  const uuid = (res.body as { uuid: string }).uuid;
  label.set(uuid, name);
  return uuid;
}

/** The names a list returns (sorted), after checking it is a 200 with a consistent count. */
async function matching(
  r: ResourceSpec,
  filters: unknown,
  query: Record<string, unknown> = {},
): Promise<string[]> {
  const scoped = [['owner_uuid', '=', project], ...(filters as unknown[])];
  const res = await root()
    .resource(r)
    .list({ filters: scoped, limit: 1000, ...query });
  expect([res.status, res.body]).toEqual([
    200,
    expect.objectContaining({ items: expect.any(Array) }),
  ]);
  expect(res.body.items_available).toBe(res.body.items.length);
  return res.body.items.map((i) => label.get(i.uuid as string) ?? String(i.uuid)).sort();
}

async function rejected(r: ResourceSpec, filters: unknown, message: string): Promise<void> {
  const res = await root().resource(r).list({ filters });
  expect([res.status, res.body]).toEqual([
    422,
    { errors: [message], error_token: expect.stringMatching(ERROR_TOKEN) },
  ]);
}

const uuids: Record<string, string> = {};

beforeAll(async () => {
  project = await create(groups, 'project', { name: 'filters', group_class: 'project' });
  const owned = { owner_uuid: project };
  // Requests are committed, then pointed by an admin at containers made for the example
  // (containers.md §1: admins may set container_uuid to any existing container).
  const image = await makeImage(root());
  uuids['complete'] = await create(containers, 'complete', { state: 'Complete', command: ['x'] });
  uuids['queued'] = await create(containers, 'queued', { command: ['y'] });
  const requests: [string, string | null, number][] = [
    ['A', uuids['complete']!, 1],
    ['B', uuids['queued']!, 5],
    ['C', null, 0],
  ];
  for (const [name, container, priority] of requests) {
    const body = container
      ? committedRequest(image, { ...owned, priority, command: ['x', name] })
      : uncommittedRequest(image, { ...owned, priority, command: ['x', name] });
    uuids[name] = await create(containerRequests, name, body);
    if (!container) continue;
    const res = await root()
      .resource(containerRequests)
      .update(uuids[name]!, { container_uuid: container });
    if (res.status !== 200) throw new Error(`pointing ${name}: ${res.text}`);
  }
  const properties: Record<string, unknown> = {
    P1: { prop1: 'value1', prop2: 5 },
    P2: { prop1: 'value2', prop2: 1 },
    P3: { prop1: 'value3' },
    P4: {},
    P5: { prop1: ['value1', 'elem2'], 'http://schema.org/example': 'value1' },
  };
  for (const [name, p] of Object.entries(properties)) {
    uuids[name] = await create(collections, name, {
      ...owned,
      name,
      properties: p,
      replication_desired: name === 'P1' ? 3 : null,
    });
  }
  uuids['S'] = await create(collections, 'S', {
    ...owned,
    name: 'S',
    storage_classes_desired: ['foo', 'bar', 'baz'],
    replication_desired: 0,
  });
  await create(groups, 'genome-name', { ...owned, name: 'Genome run', group_class: 'project' });
  await create(groups, 'genome-description', {
    ...owned,
    name: 'other',
    group_class: 'project',
    description: 'about the GENOME',
  });
  await create(groups, 'unrelated', {
    ...owned,
    name: 'gen ome',
    group_class: 'project',
    description: 'nothing',
    properties: { genome: 1 },
  });
}, 60_000);

describe('§8 NULL semantics on container_requests', () => {
  it.each([
    [['container_uuid', '=', 'A'], ['A']],
    [
      ['container_uuid', '!=', 'A'],
      ['B', 'C'],
    ],
    [
      ['container_uuid', '<>', 'A'],
      ['B', 'C'],
    ],
    [['container_uuid', '=', null], ['C']],
    [
      ['container_uuid', '!=', null],
      ['A', 'B'],
    ],
    [
      ['container_uuid', 'in', ['A', 'B']],
      ['A', 'B'],
    ],
    [
      ['container_uuid', 'not in', ['A']],
      ['B', 'C'],
    ],
    [['container_uuid', 'not in', ['A', null]], ['B']],
    [['container_uuid', 'in', []], []],
    [
      ['container_uuid', 'not in', []],
      ['A', 'B', 'C'],
    ],
    [
      ['container_uuid', '<', 'zzz'],
      ['A', 'B'],
    ],
  ])('%j matches %j', async (filter, expected) => {
    // The contract writes "<A's>" for A's container uuid.
    const container = (x: unknown) =>
      x === 'A' ? uuids['complete'] : x === 'B' ? uuids['queued'] : x;
    const operand = Array.isArray(filter[2])
      ? (filter[2] as unknown[]).map(container)
      : container(filter[2]);
    expect(await matching(containerRequests, [[filter[0], filter[1], operand]])).toEqual(expected);
  });

  it('answers in [] with items_available 0', async () => {
    const res = await root()
      .resource(containerRequests)
      .list({ filters: [['container_uuid', 'in', []]] });
    expect([res.status, res.body.items, res.body.items_available]).toEqual([200, [], 0]);
  });

  it('filters on the request container with container.<attr>', async () => {
    expect(await matching(containerRequests, [['container.state', '=', 'Complete']])).toEqual([
      'A',
    ]);
    expect(await matching(containerRequests, [['container.state', '!=', 'Complete']])).toEqual([
      'B',
    ]);
    expect(
      await matching(containerRequests, [['container.state', 'in', ['Queued', 'Complete']]]),
    ).toEqual(['A', 'B']);
  });
});

describe('§11 subproperties on collections', () => {
  const P = collections;
  it.each([
    [[['properties.prop1', '=', 'value1']], ['P1']],
    [[['properties.prop1', '!=', 'value1']], ['P2', 'P3', 'P4', 'P5', 'S']],
    [
      [
        ['properties.prop1', '!=', 'value1'],
        ['properties.prop1', 'exists', true],
      ],
      ['P2', 'P3', 'P5'],
    ],
    [[['properties.prop1', 'exists', false]], ['P4', 'S']],
    [[['properties.prop1', 'in', ['value1', 'valueX']]], ['P1']],
    [[['properties.prop1', 'not in', ['value1', 'value2']]], ['P3', 'P4', 'P5', 'S']],
    [[['properties.prop1', '>', 'value2']], ['P3']],
    [[['properties.prop1', 'like', 'value%']], ['P1', 'P2', 'P3']],
    [[['properties.prop1', 'ilike', 'VALUE%']], ['P1', 'P2', 'P3']],
    [[['properties.prop2', '>', 1]], ['P1']],
    [[['properties.prop2', 'like', '5']], ['P1']],
    [[['properties.prop1', 'contains', 'value1']], ['P1', 'P5']],
    [[['properties.prop1', 'contains', 'ELEM2']], []],
    [[['properties.<http://schema.org/example>', '=', 'value1']], ['P5']],
    [[['properties', 'exists', 'prop1']], ['P1', 'P2', 'P3', 'P5']],
    [[['properties', 'contains', ['nope', 'prop2']]], ['P1', 'P2']],
  ])('%j matches %j', async (filters, expected) => {
    expect(await matching(P, filters)).toEqual(expected);
  });

  it.each([
    [
      ['properties.prop1', 'exists', null],
      "Invalid operand 'null' for 'exists' must be true or false",
    ],
    [['puppies.prop1', '=', 'x'], "Invalid attribute 'puppies' for subproperty filter"],
    [['name.prop1', '=', 'x'], "Invalid attribute 'name' for subproperty filter"],
    [['properties.prop1', '###', 'x'], "Invalid operator for subproperty search '###'"],
  ])('%j is a 422', async (filter, message) => {
    await rejected(P, [filter], message);
  });
});

describe('§12 exists and contains on a whole array', () => {
  it.each([
    [['storage_classes_desired', 'contains', 'foo'], ['S']],
    [['storage_classes_desired', 'contains', ['bar', 'foo']], ['S']],
    [['storage_classes_desired', 'contains', ['foo', 'qux']], ['S']],
    [['storage_classes_desired', 'contains', ['qux']], []],
    [['storage_classes_desired', 'exists', 'baz'], ['S']],
    [['storage_classes_desired', '=', ['foo', 'bar', 'baz']], ['S']],
    [['storage_classes_desired', '=', '["bar", "foo", "baz"]'], []],
  ])('%j matches %j', async (filter, expected) => {
    expect(await matching(collections, [filter])).toEqual(expected);
  });

  it.each([
    [[], "Invalid operand '[]' for 'contains' operator"],
    [
      [['x']],
      'Invalid element ["x"] in operand for "contains" operator (operand must be a string or array of strings)',
    ],
    [
      { a: 1 },
      'Invalid element {"a":1} in operand for "contains" operator (operand must be a string or array of strings)',
    ],
    [
      5,
      'Invalid element 5 in operand for "contains" operator (operand must be a string or array of strings)',
    ],
  ])('contains %j is a 422', async (operand, message) => {
    await rejected(collections, [['storage_classes_desired', 'contains', operand]], message);
  });

  it('refuses contains on other types', async () => {
    await rejected(
      collections,
      [['name', 'contains', 'x']],
      "Invalid attribute 'name' for operator 'contains' in filter",
    );
  });
});

describe('§13 boolean expressions', () => {
  it('compares two numeric attributes, NULL never matching', async () => {
    expect(await matching(collections, ['(replication_desired > version)'])).toEqual(['P1']);
    expect(await matching(collections, [['(replication_desired <= version)', '=', true]])).toEqual([
      'S',
    ]);
    expect(
      await matching(containerRequests, ['(priority > container_count)', ['name', '=', null]]),
    ).toEqual(['B']);
  });

  it.each([
    ['replication_desired > version', "Invalid expression filter 'replication_desired > version'"],
    ['(replication_desired > 2)', "Invalid attribute in expression: '2'"],
    ['(name > replication_desired)', "Non-numeric attribute in expression: 'name'"],
  ])('%j is a 422', async (expression, message) => {
    await rejected(collections, [expression], message);
  });

  it('wants ["=", true] after an expression', async () => {
    await rejected(
      collections,
      [['(replication_desired > version)', '=', false]],
      `Invalid expression filter '(replication_desired > version)': subsequent elements must be ["=", true]`,
    );
  });
});

describe('datetimes at microsecond precision', () => {
  it('matches the rendered modified_at with =, <=, >= and not with <, >', async () => {
    const got = await root().resource(collections).get(uuids['P1']!);
    const at = got.body.modified_at as string;
    expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}000Z$/);
    const only = ['uuid', '=', uuids['P1']];
    for (const [op, expected] of [
      ['=', ['P1']],
      ['<=', ['P1']],
      ['>=', ['P1']],
      ['<', []],
      ['>', []],
    ] as const) {
      expect([op, await matching(collections, [only, ['modified_at', op, at]])]).toEqual([
        op,
        expected,
      ]);
    }
  });

  it('rejects an unparsable timestamp', async () => {
    await rejected(
      collections,
      [['modified_at', '<', 'soon']],
      "Invalid operand 'soon' for datetime attribute 'modified_at'",
    );
  });
});

describe('§9 is_a', () => {
  it('on uuid matches all records or none', async () => {
    expect(await matching(collections, [['uuid', 'is_a', 'svc#collection']])).toHaveLength(6);
    expect(await matching(collections, [['uuid', 'is_a', ['svc#group', 'svc#user']]])).toEqual([]);
  });

  it('on other attributes reads the uuid infix, camelCase or snake_case', async () => {
    expect(
      await matching(containerRequests, [['container_uuid', 'is_a', 'svc#container']]),
    ).toEqual(['A', 'B']);
    expect(
      await matching(collections, [['owner_uuid', 'is_a', ['svc#container_request', 'svc#group']]]),
    ).toHaveLength(6);
    expect(await matching(collections, [['owner_uuid', 'is_a', 'svc#containerRequest']])).toEqual(
      [],
    );
    expect(await matching(collections, [['owner_uuid', 'is_a', 'svc#bogus']])).toEqual([]);
  });

  it('refuses other operands', async () => {
    await rejected(
      collections,
      [['owner_uuid', 'is_a', 5]],
      "Invalid operand type 'number' for 'is_a' operator in filters",
    );
  });
});

describe('§10 any', () => {
  it('searches every searchable attribute for the text, case-insensitively with ilike', async () => {
    expect(await matching(groups, [['any', 'ilike', '%genome%']])).toEqual([
      'genome-description',
      'genome-name',
      'unrelated',
    ]);
    expect(await matching(groups, [['any', 'like', '%Genome%']])).toEqual(['genome-name']);
    expect(await matching(groups, [['any', 'ilike', '%genome run%']])).toEqual(['genome-name']);
  });

  it('does not match across two attributes', async () => {
    // name "gen ome", group_class "project": their concatenation holds "ome proj", no attribute does.
    expect(await matching(groups, [['any', 'ilike', '%ome proj%']])).toEqual([]);
    expect(await matching(groups, [['any', 'ilike', '%gen ome%']])).toEqual(['unrelated']);
  });

  it('applies other operators to every string attribute', async () => {
    expect(await matching(groups, [['any', '=', 'Genome run']])).toEqual(['genome-name']);
    await rejected(
      groups,
      [['any', '<', 'x']],
      "Invalid attribute 'any' for operator '<' in filter",
    );
  });
});

describe('§14 where', () => {
  it('is ANDed with filters', async () => {
    const res = await root()
      .resource(collections)
      .list({ where: { name: ['P1', 'P2'], bogus: 1 }, filters: [['properties.prop2', '>', 1]] });
    expect([res.status, res.body.items.map((i) => i.name)]).toEqual([200, ['P1']]);
  });

  it('reads {"any": ["contains", text]} as a text search', async () => {
    const res = await root()
      .resource(groups)
      .list({ where: { any: ['contains', 'GENOME R'] } });
    expect([res.status, res.body.items.map((i) => i.name)]).toEqual([200, ['Genome run']]);
  });
});

describe('§15 messages', () => {
  it.each([
    ['"x"', 'Could not parse "filters" param as an array'],
    [[5], 'Invalid element in filters array: 5 is not an array'],
    [[['name', '=']], 'Invalid filter ["name","="]: must have exactly 3 elements'],
    [[['bogus', '=', 'x']], "Invalid attribute 'bogus' in filter"],
    [[['name', 'is', 'x']], "Invalid operator 'is'"],
    [[['name', '@@', 'x']], 'Full text search operator is no longer supported'],
    [
      [['replication_desired', 'like', 'x']],
      "Invalid attribute 'replication_desired' for operator 'like' in filter",
    ],
    [
      [['preserve_version', '<', true]],
      "Invalid operator '<' for boolean attribute 'preserve_version'",
    ],
    [[['name', 'in', 'x']], "Invalid operand type 'string' for 'in' operator in filters"],
    [
      [['replication_desired', '=', 1.5]],
      "Invalid operand '1.5' for integer attribute 'replication_desired'",
    ],
    [
      [['replication_desired', 'in', ['x']]],
      "Invalid element 'x' in array for integer attribute 'replication_desired'",
    ],
    [
      [['preserve_version', '=', 'maybe']],
      "Invalid operand 'maybe' for boolean attribute 'preserve_version'",
    ],
    [[['properties', '=', '[1]']], "Invalid operand '[1]' for hash attribute 'properties'"],
  ])('filters=%j is a 422', async (filters, message) => {
    await rejected(collections, filters, message);
  });
});

import { inputMode } from '../attributes';
import { FILTER_OPERATORS } from '../api/filters';
import { COMPUTED_PERMISSION_PROPERTIES, propertySchema } from '../discovery';
import { RESOURCES, schemaName } from '../registry';
import type { AttributeSpec, ResourceSpec } from '../types';
import { attributeJsonSchema } from '../validate-attributes';

type Json = Record<string, unknown>;

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** JSON Schema 2020-12 spells "nullable" as a type union. */
function nullable(schema: Json, a: AttributeSpec): Json {
  if (!a.nullable) return schema;
  return { ...schema, type: [schema['type'], 'null'] };
}

/** A rendered attribute: the discovery property, with null where the attribute may be null. */
const outputSchema = (a: AttributeSpec): Json => nullable(propertySchema(a), a);

/** An attribute as the create and update validator accepts it, in standard formats. */
function inputSchema(a: AttributeSpec): Json {
  const schema = attributeJsonSchema(a);
  const withFormat =
    schema['format'] === 'svc-datetime' ? { ...schema, format: 'date-time' } : schema;
  return {
    ...withFormat,
    ...(a.description ? { description: a.description } : {}),
    ...(a.default !== undefined ? { default: a.default } : {}),
  };
}

/** `<Name>`, `<Name>List` and `<Name>Input` of one resource. */
function resourceSchemas(r: ResourceSpec): Record<string, Json> {
  const name = schemaName(r);
  const properties: Json = {};
  const input: Json = {};
  for (const [attr, a] of Object.entries(r.attributes)) {
    if (!a.secret) properties[attr] = outputSchema(a);
    if (inputMode(a) !== 'ignored') input[attr] = inputSchema(a);
  }
  return {
    [name]: {
      type: 'object',
      description: `${r.description} Kind \`${r.kind}\`, uuid infix \`${r.infix}\`. Only \`kind\` and the selected attributes are present when \`select\` is given.`,
      properties,
      required: ['kind'],
    },
    [`${name}List`]: listSchema(`A list of ${r.type}.`, `${r.kind}List`, ref(name)),
    [`${name}Input`]: {
      type: 'object',
      description: `Attributes a client may set on a ${r.singular}; others give 422 "Unknown attribute". Server-set fields (kind, etag, created_at, …) are ignored rather than refused.`,
      properties: input,
    },
  };
}

function listSchema(description: string, kind: string, items: Json, extra: Json = {}): Json {
  return {
    type: 'object',
    description,
    properties: {
      kind: { type: 'string', default: kind },
      offset: { type: 'integer' },
      limit: { type: 'integer' },
      items_available: {
        type: 'integer',
        description: 'Number of matching items; absent when count=none',
      },
      items: { type: 'array', items },
      ...extra,
    },
    required: ['kind', 'offset', 'limit', 'items'],
  };
}

/** The error answer of every refused call (requests-and-errors.md §7). */
const errorSchema: Json = {
  type: 'object',
  properties: {
    errors: { type: 'array', items: { type: 'string' }, minItems: 1 },
    error_token: { type: 'string', pattern: '^[0-9]+\\+[0-9a-f]{8}$' },
  },
  required: ['errors', 'error_token'],
};

/** The filter language (lists-and-filters.md §5): conditions and expression strings. */
const filterSchemas: Record<string, Json> = {
  FilterCondition: {
    description:
      'A condition [attribute, operator, operand], or a boolean expression such as "(a > b)". The attribute is one of the resource, `<hash attribute>.<key>`, or `any`.',
    oneOf: [
      {
        type: 'array',
        prefixItems: [{ type: 'string' }, { type: 'string', enum: [...FILTER_OPERATORS] }, {}],
        minItems: 3,
        maxItems: 3,
      },
      { type: 'string', pattern: '^ *\\(.*\\) *$' },
    ],
  },
  Filters: {
    type: 'array',
    description: 'All conditions must hold',
    items: ref('FilterCondition'),
  },
};

/** Every schema the document names. */
export function componentSchemas(): Record<string, Json> {
  return Object.assign(
    {},
    ...RESOURCES.map(resourceSchemas),
    {
      ObjectList: listSchema(
        'Objects of several types.',
        'svc#objectList',
        { type: 'object' },
        {
          included: { type: 'array', items: { type: 'object' } },
        },
      ),
      Error: errorSchema,
      ComputedPermission: {
        type: 'object',
        description: "A user's highest level on a group, user or link head.",
        properties: COMPUTED_PERMISSION_PROPERTIES,
        required: ['kind', 'user_uuid', 'target_uuid', 'perm_level'],
      },
      ComputedPermissionList: {
        type: 'object',
        description: 'Rows of the materialized permission table: no offset, no count.',
        properties: {
          kind: { type: 'string', default: 'svc#computedPermissionList' },
          limit: { type: 'integer' },
          items: { type: 'array', items: ref('ComputedPermission') },
        },
        required: ['kind', 'limit', 'items'],
      },
    },
    filterSchemas,
  );
}

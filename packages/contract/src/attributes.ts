import type { AttributeSpec, AttrType, InputMode, ResourceSpec } from './types';

export const isStored = (a: AttributeSpec): boolean => a.stored !== false;

export const inputMode = (a: AttributeSpec): InputMode =>
  a.input ?? (isStored(a) ? 'rw' : 'ignored');

export const isScalarType = (t: AttrType): boolean => t !== 'hash' && t !== 'array';

/** The SQL that reads an attribute from its table's row, or null if it cannot be computed in SQL. */
export function attributeSql(name: string, a: AttributeSpec): string | null {
  if (a.secret) return null;
  if (isStored(a)) return quoteIdent(name);
  return a.sql ?? null;
}

/** Identifiers only ever come from the schema; quoting keeps reserved words (`log`) safe. */
export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a schema identifier: ${name}`);
  return `"${name}"`;
}

/** The attribute's spec, never an Object.prototype member (`constructor`, `toString`…). */
export const attributeOf = (r: ResourceSpec, name: string): AttributeSpec | undefined =>
  Object.hasOwn(r.attributes, name) ? r.attributes[name] : undefined;

export const isSelectable = (r: ResourceSpec, name: string): boolean => {
  const a = attributeOf(r, name);
  return a !== undefined && !a.secret;
};

/** Attributes usable in filters: public, with an SQL form. */
export const isFilterable = (r: ResourceSpec, name: string): boolean => {
  const a = attributeOf(r, name);
  return a !== undefined && attributeSql(name, a) !== null;
};

/** Attributes usable in `order`: filterable and of a scalar type. */
export const isOrderable = (r: ResourceSpec, name: string): boolean => {
  const a = attributeOf(r, name);
  return a !== undefined && isScalarType(a.type) && attributeSql(name, a) !== null;
};

/** Names never searched by `any` text search (lists-and-filters.md §10). */
const NOT_SEARCHED = new Set([
  'uuid',
  'portable_data_hash',
  'container_image',
  'manifest_text',
  'unsigned_manifest_text',
  'api_token',
  'scopes',
  'mounts',
  'definition',
]);

/** Attributes searched by `["any", "like", "%text%"]`. */
export function searchableAttributes(r: ResourceSpec): string[] {
  return Object.entries(r.attributes)
    .filter(
      ([name, a]) =>
        ['string', 'text', 'array', 'hash'].includes(a.type) &&
        !NOT_SEARCHED.has(name) &&
        !name.endsWith('_uuid') &&
        isStored(a) &&
        !a.secret,
    )
    .map(([name]) => name);
}

const selections = new WeakMap<ResourceSpec, { one: readonly string[]; list: readonly string[] }>();

/**
 * Attributes rendered by default: all public ones, minus list-only omissions in lists. Worked
 * out once per resource (every answer renders with it).
 */
export function defaultSelection(r: ResourceSpec, forList: boolean): readonly string[] {
  let known = selections.get(r);
  if (!known) {
    const pick = (list: boolean) =>
      Object.entries(r.attributes)
        .filter(([, a]) => !a.secret && !(list && a.inLists === false))
        .map(([name]) => name);
    known = { one: pick(false), list: pick(true) };
    selections.set(r, known);
  }
  return forList ? known.list : known.one;
}

export const storedAttributeNames = (r: ResourceSpec): string[] =>
  Object.entries(r.attributes)
    .filter(([, a]) => isStored(a))
    .map(([name]) => name);

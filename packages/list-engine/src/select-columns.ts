import {
  attributeOf,
  attributeSql,
  defaultSelection,
  isStored,
  type ResourceSpec,
} from '@svc/contract';
import { join, raw, sql, type Sql } from './sql';

export const hasSqlForm = (r: ResourceSpec, name: string): boolean => {
  const a = attributeOf(r, name);
  return a !== undefined && attributeSql(name, a) !== null;
};

const column = (r: ResourceSpec, name: string): Sql => {
  const a = r.attributes[name]!;
  const text = attributeSql(name, a)!;
  if (isStored(a)) return raw(text);
  const collated = a.type === 'string' || a.type === 'text' ? ` COLLATE "C"` : '';
  return raw(`(${text})${collated} AS "${name}"`);
};

/**
 * What a query reads for each row: every attribute with an SQL form that the response may need.
 * Lists leave out attributes omitted from lists (manifest_text) unless they are selected.
 */
const defaultColumns = new WeakMap<ResourceSpec, { one: Sql; list: Sql }>();

export function rowColumns(
  r: ResourceSpec,
  select: readonly string[] | null,
  forList: boolean,
): Sql {
  if (select === null) {
    // The common case, worked out once per resource.
    let known = defaultColumns.get(r);
    if (!known) {
      known = { one: columnsFor(r, null, false), list: columnsFor(r, null, true) };
      defaultColumns.set(r, known);
    }
    return forList ? known.list : known.one;
  }
  return columnsFor(r, select, forList);
}

function columnsFor(r: ResourceSpec, select: readonly string[] | null, forList: boolean): Sql {
  const wanted = new Set(defaultSelection(r, forList));
  for (const name of select ?? []) wanted.add(name);
  const names = Object.keys(r.attributes).filter((n) => wanted.has(n) && hasSqlForm(r, n));
  return join(
    names.map((n) => column(r, n)),
    ', ',
  );
}

/** The columns of a `distinct` list: only the selected attributes (kind is constant). */
export function distinctColumns(r: ResourceSpec, select: readonly string[]): Sql {
  const names = select.filter((n) => n !== 'kind');
  return names.length > 0
    ? join(
        names.map((n) => column(r, n)),
        ', ',
      )
    : sql`1 AS "_one"`;
}

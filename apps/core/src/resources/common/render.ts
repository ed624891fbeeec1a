import { attributeOf, defaultSelection, type ResourceSpec } from '@svc/contract';
import { etagOf, type Row } from './row';

/** Computes attributes that need more than the row; undefined leaves the row's value. */
export type ComputeAttribute = (name: string, row: Row) => unknown;

/** The names a selection renders: known, not secret, not `kind` (always first). */
const renderable = (r: ResourceSpec, names: readonly string[]): string[] =>
  names.filter((name) => {
    const spec = attributeOf(r, name);
    return name !== 'kind' && spec !== undefined && !spec.secret;
  });

/** The default selections' renderable names, worked out once per resource (no per-row schema walk). */
const defaults = new WeakMap<ResourceSpec, { one: string[]; list: string[] }>();

function namesFor(r: ResourceSpec, select: readonly string[] | null, forList: boolean): string[] {
  if (select !== null) return renderable(r, select);
  let known = defaults.get(r);
  if (!known) {
    known = {
      one: renderable(r, defaultSelection(r, false)),
      list: renderable(r, defaultSelection(r, true)),
    };
    defaults.set(r, known);
  }
  return forList ? known.list : known.one;
}

/**
 * One API object from one row: `kind` always, then the selected attributes (all the method's
 * defaults when `select` is null), nullable ones rendered as null, secrets never.
 */
export function renderObject(
  r: ResourceSpec,
  row: Row,
  select: readonly string[] | null,
  forList: boolean,
  compute?: ComputeAttribute,
): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: r.kind };
  for (const name of namesFor(r, select, forList)) {
    if (name === 'etag') {
      out[name] = etagOf(row);
      continue;
    }
    const computed = compute?.(name, row);
    out[name] = computed !== undefined ? computed : (row[name] ?? null);
  }
  return out;
}

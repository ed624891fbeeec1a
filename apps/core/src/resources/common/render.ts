import { attributeOf, defaultSelection, type ResourceSpec } from '@svc/contract';
import { etagOf, type Row } from './row';

/** Computes attributes that need more than the row; undefined leaves the row's value. */
export type ComputeAttribute = (name: string, row: Row) => unknown;

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
  for (const name of select ?? defaultSelection(r, forList)) {
    if (name === 'kind') continue;
    const spec = attributeOf(r, name);
    if (!spec || spec.secret) continue;
    if (name === 'etag') {
      out[name] = etagOf(row);
      continue;
    }
    const computed = compute?.(name, row);
    out[name] = computed !== undefined ? computed : (row[name] ?? null);
  }
  return out;
}

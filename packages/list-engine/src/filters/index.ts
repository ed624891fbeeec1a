import { UnprocessableError } from '@svc/errors';
import type { ResourceSpec } from '@svc/contract';
import type { Sql } from '../sql';

/**
 * `filters` and `where` → one SQL condition, or null when there is none.
 * The operator table lands with the filter-language issue; until then any condition is refused.
 */
export function compileFilters(
  _r: ResourceSpec,
  filters: readonly unknown[] | undefined,
  where: Record<string, unknown> | undefined,
): Sql | null {
  if ((filters && filters.length > 0) || (where && Object.keys(where).length > 0)) {
    throw new UnprocessableError('filters are not supported yet');
  }
  return null;
}

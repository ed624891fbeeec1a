import { UnprocessableError } from '@svc/errors';
import type { Row } from '../common/row';

const QUALIFIERS = ['collections', 'container_requests', 'groups', 'workflows'];
const OPERATORS = [
  '=',
  '<',
  '<=',
  '>',
  '>=',
  '!=',
  'like',
  'ilike',
  'in',
  'not in',
  'is_a',
  'exists',
  'contains',
];

const fail = (message: string): never => {
  throw new UnprocessableError(message);
};

/** One stored condition, checked in the contract's order (groups.md §8). */
function checkCondition(condition: unknown[]): void {
  const [attribute, operator] = condition;
  const attr = typeof attribute === 'string' ? attribute : '';
  const isUuid = attr.toLowerCase() === 'uuid';
  if (!isUuid && !attr.includes('.')) {
    fail("filter attribute must be 'uuid' or contain a dot (e.g. groups.name)");
  }
  if (operator === 'is_a' && !isUuid)
    fail("when filter operator is 'is_a', attribute must be 'uuid'");
  if (isUuid && operator !== 'is_a')
    fail("when filter attribute is 'uuid', operator must be 'is_a'");
  if (!isUuid && !QUALIFIERS.includes(attr.slice(0, attr.indexOf('.')))) {
    fail(`filter attribute qualifier must be one of ${QUALIFIERS.join(', ')}`);
  }
  if (typeof operator !== 'string' || !OPERATORS.includes(operator)) {
    fail(`filter operator is not valid (must be ${OPERATORS.join(',')})`);
  }
}

/**
 * A filter group's `properties.filters` (groups.md §8), on create and on every update. Whether
 * the conditions hold for their types is checked when the contents are listed.
 */
export function checkFilterGroup(row: Row): void {
  if (row['group_class'] !== 'filter') return;
  const props = row['properties'];
  const filters =
    props && typeof props === 'object' && !Array.isArray(props)
      ? (props as Record<string, unknown>)['filters']
      : undefined;
  if (filters === undefined) {
    fail('filters property missing, it must be an array of arrays, each with 3 elements');
  }
  const shapeOk =
    Array.isArray(filters) && filters.every((f) => Array.isArray(f) && f.length === 3);
  if (!shapeOk) fail('filters property must be an array of arrays, each with 3 elements');
  for (const condition of filters as unknown[][]) checkCondition(condition);
}

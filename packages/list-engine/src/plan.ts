import type { ResourceSpec } from '@svc/contract';
import type { Sql } from './sql';

export type Direction = 'asc' | 'desc';

export interface OrderKey {
  attribute: string;
  direction: Direction;
}

export type CountMode = 'exact' | 'none';

/** A validated list request for one resource type, ready to compile. */
export interface ListPlan {
  resource: ResourceSpec;
  limit: number;
  offset: number;
  /** Total: always ends with a uuid key unless `distinct` replaced it. */
  order: OrderKey[];
  /** Attributes to render; null means the resource's default list selection. */
  select: string[] | null;
  distinct: boolean;
  count: CountMode;
  /** Compiled conditions from `filters` and `where` (ANDed); null when there are none. */
  where: Sql | null;
}

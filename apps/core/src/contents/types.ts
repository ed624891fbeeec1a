import type { ResourceSpec } from '@svc/contract';
import type { OrderKey, Sql } from '@svc/list-engine';
import { collectionRules } from '../resources/collections/rules';
import type { ResourceRules } from '../resources/common/rules';
import { containerRequestRules } from '../resources/container-requests/rules';
import { groupRules } from '../resources/groups/rules';
import { workflowRules } from '../resources/workflows/rules';

/** The four types of `contents`, in the contract's fixed order (groups.md §3 step 2). */
export const CONTENT_RULES: readonly ResourceRules[] = [
  groupRules,
  containerRequestRules,
  workflowRules,
  collectionRules,
];

export const CONTENT_TYPES: ReadonlySet<string> = new Set(
  CONTENT_RULES.map((r) => r.resource.type),
);

/** Whether a type's rows can be trashed themselves (groups, collections). */
export const hasTrashAt = (r: ResourceSpec): boolean => 'trash_at' in r.attributes;

/** What one type contributes to a contents request, once the parameters are checked. */
export interface TypePlan {
  rules: ResourceRules;
  /** The request's (and a filter group's) conditions that apply to this type; null: none. */
  where: Sql | null;
  /** Total order within the type: requested keys, then modified_at desc, uuid asc. */
  order: OrderKey[];
  /** Attributes to render; null: the list defaults. */
  select: string[] | null;
}

export interface ContentsPlan {
  types: TypePlan[];
  limit: number;
  offset: number;
  count: boolean;
  include: ReadonlySet<string>;
}

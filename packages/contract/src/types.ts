/** Attribute types of lists-and-filters.md §6: the scalar ones, then the JSON-valued ones. */
export const ATTR_TYPES = [
  'string',
  'text',
  'integer',
  'float',
  'boolean',
  'datetime',
  'hash',
  'array',
] as const;
export type AttrType = (typeof ATTR_TYPES)[number];

/**
 * How a client-supplied value is treated on create and update.
 * - `rw`: type-checked and stored as given (resource rules may still refuse it).
 * - `hook`: type-checked and handed to the resource's own rules, never stored generically.
 * - `ignored`: dropped silently (server-set and computed fields).
 */
export type InputMode = 'rw' | 'hook' | 'ignored';

export interface AttributeSpec {
  readonly type: AttrType;
  /** `null` is accepted on input and may be rendered. */
  readonly nullable?: boolean;
  /** Value on create when the client gives none and no resource rule computes one. */
  readonly default?: unknown;
  readonly input?: InputMode;
  /** Missing, null or "" on create gives 422 "<attr> can't be blank". */
  readonly required?: boolean;
  /** Stored and accepted on input, never rendered, selected, filtered or ordered on. */
  readonly secret?: boolean;
  /** `false`: no column of its own; `sql` (if any) computes it from the row's columns. */
  readonly stored?: boolean;
  /** SQL expression over the row's own columns, for computed attributes. */
  readonly sql?: string;
  /** Element type of an array attribute (strings unless stated otherwise). */
  readonly items?: 'string' | 'hash';
  readonly maxLength?: number;
  /**
   * Names another object, which must exist and be readable (requests-and-errors.md §9):
   * otherwise 422 "<attr> '<uuid>' not found".
   */
  readonly reference?: boolean;
  /** Replaces the generic type message (e.g. "scopes must be an array of strings"). */
  readonly typeMessage?: string;
  /** Left out of list responses unless selected (collections' manifest_text). */
  readonly inLists?: boolean;
  readonly description?: string;
}

export type Attributes = Readonly<Record<string, AttributeSpec>>;

export interface ResourceSpec<A extends Attributes = Attributes> {
  /** Plural path segment and table name, e.g. `container_requests`. */
  readonly type: string;
  /** snake_case singular: the body wrapper key. */
  readonly singular: string;
  /** `svc#camelCaseSingular`. */
  readonly kind: string;
  /** Uuid infix. */
  readonly infix: string;
  readonly description: string;
  /** Every attribute, common ones included, in rendering order. */
  readonly attributes: A;
  /** Names with a per-resource unique-name rule (requests-and-errors.md §12). */
  readonly uniqueNamePerOwner?: boolean;
  /** Delete trashes instead of removing (groups, collections). */
  readonly trashable?: boolean;
  /** The standard methods it has, when not all five (keep_services: list and get). */
  readonly methods?: readonly StandardMethod[];
  /** Answered by the gateway itself for every method (no table, no core). */
  readonly servedBy?: 'gateway';
}

export type StandardMethod = 'list' | 'get' | 'create' | 'update' | 'delete';

type ScalarOf<T extends AttrType> = T extends 'string' | 'text' | 'datetime'
  ? string
  : T extends 'integer' | 'float'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'hash'
        ? Record<string, unknown>
        : unknown[];

export type ValueOf<S extends AttributeSpec> = S['nullable'] extends true
  ? ScalarOf<S['type']> | null
  : ScalarOf<S['type']>;

type PublicKeys<A extends Attributes> = {
  [K in keyof A]: A[K]['secret'] extends true ? never : K;
}[keyof A];

/** The rendered object of a resource, derived from its schema. */
export type ApiObject<R extends ResourceSpec> = {
  [K in PublicKeys<R['attributes']>]: ValueOf<R['attributes'][K]>;
};

export const defineResource = <const A extends Attributes>(
  spec: ResourceSpec<A>,
): ResourceSpec<A> => spec;

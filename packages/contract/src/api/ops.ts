import type { HttpMethod, ParamSpecs } from '../params';
import { schemaName } from '../registry';
import type { ApiObject, ResourceSpec } from '../types';
import { CREATE_PARAMS, DELETE_PARAMS, GET_PARAMS, LIST_PARAMS, UPDATE_PARAMS } from './params';

/**
 * How the gateway picks the cluster that answers (federation.md §2): by the `{uuid}` path
 * segment, by `cluster_id`, always locally, or as a (federated) list. `group_uuid`
 * (`groups.contents`): `cluster_id` if given, else the cluster of a group `uuid`, else local.
 */
export type Routing = 'uuid' | 'cluster_id' | 'local' | 'list' | 'group_uuid';

/** What an operation answers: the discovery schema it names, and its TypeScript type. */
export interface Result<T> {
  readonly schema: string | null;
  /** Type only: never set at run time. */
  readonly type?: T;
}

/** A list answer (lists-and-filters.md §2). */
export interface ItemList<T> {
  kind: string;
  offset: number;
  limit: number;
  items: T[];
  items_available?: number;
}

/** `groups.contents`: objects of several kinds, with what `include` asked for. */
export interface ObjectList extends ItemList<Record<string, unknown> & { kind: string }> {
  included?: (Record<string, unknown> & { kind: string })[];
}

export const objectOf = <R extends ResourceSpec>(r: R): Result<ApiObject<R>> => ({
  schema: schemaName(r),
});
export const listOf = <R extends ResourceSpec>(r: R): Result<ItemList<ApiObject<R>>> => ({
  schema: `${schemaName(r)}List`,
});
export const objectListResult: Result<ObjectList> = { schema: 'ObjectList' };
/** A JSON answer with no schema of its own (discovery shows `"response": {}`). */
export const plainJson = <T>(): Result<T> => ({ schema: null });

/** The body of an operation that takes named fields rather than a resource object. */
export interface BodyFields<B> {
  readonly schema: Readonly<Record<string, unknown>>;
  readonly type?: B;
}
export const bodyFields = <B>(schema: Readonly<Record<string, unknown>>): BodyFields<B> => ({
  schema,
});

/**
 * One operation of the API: its HTTP form, its parameters (each with its declared type), what
 * it takes in its body and what it answers. The types of a call's options and result follow
 * from these values (api/types.ts), so the table is the one source for routing, validation,
 * discovery and the TypeScript interface.
 */
export interface Op<
  P extends ParamSpecs = ParamSpecs,
  T = unknown,
  R extends ResourceSpec | null = ResourceSpec | null,
  B = unknown,
> {
  /** Its discovery id, when not `svc.<resource type>.<name>` (`sys.get` is `svc.sys.trash_sweep`). */
  readonly id?: string;
  readonly httpMethod: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Every method accepted (update also takes PATCH; HEAD is handled as GET). */
  readonly methods?: readonly HttpMethod[];
  /** Relative to `/svc/v1/`; `{uuid}` matches one segment. */
  readonly path: string;
  /** Alternative forms of the same operation, not listed in discovery. */
  readonly altPaths?: readonly string[];
  readonly params: P;
  /** Create and update take an object of this resource (wrapped or bare). */
  readonly attributesOf?: R;
  /** The body's wrapper key, when not the resource's singular (`user_agreement`). */
  readonly wrapper?: string;
  /** Named body fields (users/authenticate). */
  readonly body?: BodyFields<B>;
  readonly result: Result<T>;
  /** Answers 204 with no body once done (the trash-sweep trigger). */
  readonly noContent?: boolean;
  /** Needs no token; a token sent is ignored and scopes do not apply (config, authenticate). */
  readonly public?: boolean;
  /** Answered by the gateway itself (login), not forwarded to a core. */
  readonly servedBy?: 'gateway';
  readonly routing: Routing;
  readonly description: string;
}

export const op = <const P extends ParamSpecs, T, R extends ResourceSpec | null = null, B = never>(
  o: Op<P, T, R, B>,
): Op<P, T, R, B> => o;

/** Parameters a resource adds to its standard operations. */
export interface StandardExtras {
  list?: ParamSpecs;
  get?: ParamSpecs;
  create?: ParamSpecs;
  update?: ParamSpecs;
}
type With<Base extends ParamSpecs, X> = X extends ParamSpecs ? Base & X : Base;

/**
 * Where standard operations live when not at the resource's own path: user agreements are
 * collections served at `user_agreements` with the wrapper `user_agreement`.
 */
export interface StandardForm {
  type: string;
  singular: string;
}

/** The five operations every resource has (requests-and-errors.md §2), with its extras. */
export function standardOps<
  R extends ResourceSpec,
  const X extends StandardExtras = Record<never, never>,
>(r: R, extras: X = {} as X, form: StandardForm = r) {
  const a = form.singular.startsWith('a') ? 'an' : 'a';
  const wrapper = form.singular !== r.singular ? { wrapper: form.singular } : {};
  return {
    list: op({
      httpMethod: 'GET',
      path: form.type,
      params: { ...LIST_PARAMS, ...extras.list } as With<typeof LIST_PARAMS, X['list']>,
      result: listOf(r),
      routing: 'list',
      description: `List ${form.type}.`,
    }),
    get: op({
      httpMethod: 'GET',
      path: `${form.type}/{uuid}`,
      params: { ...GET_PARAMS, ...extras.get } as With<typeof GET_PARAMS, X['get']>,
      result: objectOf(r),
      routing: 'uuid',
      description: `Get ${a} ${form.singular}.`,
    }),
    create: op({
      httpMethod: 'POST',
      path: form.type,
      params: { ...CREATE_PARAMS, ...extras.create } as With<typeof CREATE_PARAMS, X['create']>,
      attributesOf: r,
      ...wrapper,
      result: objectOf(r),
      routing: 'cluster_id',
      description: `Create ${a} ${form.singular}.`,
    }),
    update: op({
      httpMethod: 'PUT',
      methods: ['PUT', 'PATCH'],
      path: `${form.type}/{uuid}`,
      params: { ...UPDATE_PARAMS, ...extras.update } as With<typeof UPDATE_PARAMS, X['update']>,
      attributesOf: r,
      ...wrapper,
      result: objectOf(r),
      routing: 'uuid',
      description: `Update ${a} ${form.singular}.`,
    }),
    delete: op({
      httpMethod: 'DELETE',
      path: `${form.type}/{uuid}`,
      params: DELETE_PARAMS,
      result: objectOf(r),
      routing: 'uuid',
      description: `Delete ${a} ${form.singular}.`,
    }),
  };
}

/**
 * Operations answered by the home cluster only (docs/api/more-resources.md §1.3): a uuid of another
 * cluster is looked up here, and `cluster_id` is ignored.
 */
export function localOnly<const O extends Record<string, Op>>(
  ops: O,
): { [K in keyof O]: O[K] & { routing: 'local' } } {
  return Object.fromEntries(
    Object.entries(ops).map(([name, o]) => [name, { ...o, routing: 'local' }]),
  ) as { [K in keyof O]: O[K] & { routing: 'local' } };
}

import type { ParamSpec, ParamSpecs } from '../params';
import type { AttributeSpec, Attributes, ResourceSpec, ValueOf } from '../types';
import type { FilterCondition, OrderEntry } from './filters';
import type { ItemList, Op } from './ops';
import type { API } from './table';

type Table = typeof API;
export type ResourceType = keyof Table & string;
type OpsOf<K extends ResourceType> = Table[K];

/** `svc.<resource type>.<name>` of every operation. */
export type EndpointId = {
  [K in ResourceType]: `svc.${K}.${keyof OpsOf<K> & string}`;
}[ResourceType];

type OpOf<Id extends EndpointId> = Id extends `svc.${infer K}.${infer M}`
  ? K extends ResourceType
    ? M extends keyof OpsOf<K>
      ? OpsOf<K>[M]
      : never
    : never
  : never;

/** A parameter's value once converted by its declared type (requests-and-errors.md §3). */
type ParamValue<S extends ParamSpec> = S['type'] extends 'integer'
  ? number
  : S['type'] extends 'boolean'
    ? boolean
    : S['type'] extends 'array'
      ? unknown[]
      : S['type'] extends 'object'
        ? Record<string, unknown>
        : string | null;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The objects an operation answers: a list's items, or the object itself. */
export type ItemOf<T> = T extends ItemList<infer I> ? I : T;

/**
 * `filters`, `select` and `order` name attributes of the objects the operation answers, so a
 * misspelled attribute in them does not compile (lists-and-filters.md §3, §5).
 */
type OptionValue<K, S extends ParamSpec, T> = K extends 'filters'
  ? readonly FilterCondition<ItemOf<T>>[]
  : K extends 'select'
    ? readonly (keyof ItemOf<T> & string)[]
    : K extends 'order'
      ? readonly OrderEntry<ItemOf<T>>[]
      : ParamValue<S>;

type ParamOptions<P extends ParamSpecs, T> = Simplify<
  { [K in keyof P as P[K]['required'] extends true ? K : never]: OptionValue<K, P[K], T> } & {
    [K in keyof P as P[K]['required'] extends true ? never : K]?: OptionValue<K, P[K], T>;
  }
>;

/** Attributes a client may send: everything but the ignored (server-set, computed) ones. */
type Writable<A extends AttributeSpec> = A['input'] extends 'ignored'
  ? false
  : A['input'] extends 'rw' | 'hook'
    ? true
    : A['stored'] extends false
      ? false
      : true;

/** The attributes of a create or update of R: a misspelled name does not compile. */
export type InputOf<R extends ResourceSpec> =
  R extends ResourceSpec<infer A extends Attributes>
    ? { [K in keyof A as Writable<A[K]> extends true ? K : never]?: ValueOf<A[K]> }
    : never;

type BodyOptions<O> =
  O extends Op<ParamSpecs, unknown, infer R, infer B>
    ? (R extends ResourceSpec ? { attributes?: InputOf<R> } : unknown) &
        ([B] extends [never] ? unknown : B)
    : unknown;

/** The typed options of an operation: its converted parameters and what its body carries. */
export type OptionsOf<O> =
  O extends Op<infer P, infer T, ResourceSpec | null, unknown>
    ? Simplify<ParamOptions<P, T> & BodyOptions<O>>
    : never;

export type ResultOf<O> =
  O extends Op<ParamSpecs, infer T, ResourceSpec | null, unknown> ? T : never;

export type OptionsOfId<Id extends EndpointId> = OptionsOf<OpOf<Id>>;
export type ResultOfId<Id extends EndpointId> = ResultOf<OpOf<Id>>;

/** One API call as a value: which operation, with which typed options. */
export interface ApiCall<Id extends EndpointId = EndpointId> {
  endpoint: Id;
  options: OptionsOfId<Id>;
}

type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];
type MethodOf<O> = [RequiredKeys<OptionsOf<O>>] extends [never]
  ? (options?: OptionsOf<O>) => Promise<ResultOf<O>>
  : (options: OptionsOf<O>) => Promise<ResultOf<O>>;

type Camel<S extends string> = S extends `${infer H}_${infer T}`
  ? `${H}${Capitalize<Camel<T>>}`
  : S;

/**
 * The whole API as one TypeScript interface: a method per operation
 * (`svc.groups.get({uuid})`, `svc.containerRequests.create({attributes})`), typed options,
 * typed results. The client and the server's layers implement it.
 */
export type SvcApi = {
  [K in ResourceType as Camel<K>]: { [M in keyof OpsOf<K>]: MethodOf<OpsOf<K>[M]> };
};

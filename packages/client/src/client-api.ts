import {
  API,
  type EndpointId,
  type ItemList,
  type ItemOf,
  type OptionsOfId,
  type ResultOfId,
  type SvcApi,
} from '@svc/contract';
import type { PagingOptions } from './paging';

/** Operations that answer a list: `svc.groups.list`, `svc.groups.contents`, … */
export type ListEndpointId = {
  [Id in EndpointId]: ResultOfId<Id> extends ItemList<unknown> ? Id : never;
}[EndpointId];

/** A list's options for walking all of it: `limit` is the page size, `offset` is the walk's. */
export type ListAllOptions<Id extends ListEndpointId> = Omit<OptionsOfId<Id>, 'offset'>;
export type ListAllItem<Id extends ListEndpointId> = ItemOf<ResultOfId<Id>>;

type Camel<S extends string> = S extends `${infer H}_${infer T}`
  ? `${H}${Capitalize<Camel<T>>}`
  : S;

interface ListAllMethod<Id extends ListEndpointId> {
  /** Every matching item, page after page: `for await (const c of listAll({filters}))`. */
  listAll(options?: ListAllOptions<Id>, paging?: PagingOptions): AsyncGenerator<ListAllItem<Id>>;
}

type ListAllOf<K extends string> = `svc.${K}.list` extends infer Id extends ListEndpointId
  ? ListAllMethod<Id>
  : unknown;

type ResourceKey = keyof typeof API & string;

/** SvcApi, with `listAll` beside each resource's `list`. */
export type ClientApi = {
  [K in ResourceKey as Camel<K>]: SvcApi[Camel<K> & keyof SvcApi] & ListAllOf<K>;
};

const camel = (s: string): string => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** Adds `listAll` to each resource of a bound SvcApi that has a `list`. */
export function withListAll(
  api: SvcApi,
  listAll: (id: string, options?: Record<string, unknown>, paging?: PagingOptions) => unknown,
): ClientApi {
  const out: Record<string, object> = {};
  for (const [resource, ops] of Object.entries(API)) {
    const methods = (api as unknown as Record<string, object>)[camel(resource)]!;
    out[camel(resource)] =
      'list' in ops
        ? {
            ...methods,
            listAll: (options?: Record<string, unknown>, paging?: PagingOptions) =>
              listAll(`svc.${resource}.list`, options, paging),
          }
        : methods;
  }
  return out as ClientApi;
}

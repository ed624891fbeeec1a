export * from './client';
export { encodeQuery, type Answer, type RequestOptions, type Requester } from './http';
export * from './api-error';
export * from './blocks';
export * from './containers';
export * from './resource-client';
export type { ClientApi, ListAllItem, ListAllOptions, ListEndpointId } from './client-api';
export type { PagingOptions, Progress } from './paging';
export { DEFAULT_RETRY, baseUrlOf, type ClientOptions, type RetryPolicy } from './settings';

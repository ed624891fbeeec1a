import { API } from './table';
import type { SvcApi } from './types';

/** Carries out one call: `svc.<type>.<name>` with its typed options. */
export type Executor = (endpointId: string, options: Record<string, unknown>) => Promise<unknown>;

const camel = (s: string): string => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** The typed interface over any executor (an HTTP client, a layer of the gateway, a fake). */
export function bindApi(execute: Executor): SvcApi {
  const api: Record<string, Record<string, (options?: Record<string, unknown>) => unknown>> = {};
  for (const [resource, ops] of Object.entries(API)) {
    const methods: Record<string, (options?: Record<string, unknown>) => unknown> = {};
    for (const name of Object.keys(ops)) {
      methods[name] = (options = {}) => execute(`svc.${resource}.${name}`, options);
    }
    api[camel(resource)] = methods;
  }
  return api as unknown as SvcApi;
}

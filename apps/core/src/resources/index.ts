import { ENDPOINTS, endpointId } from '@svc/contract';
import type { Handler } from '../call';
import { apiClientAuthorizationRules } from './api-client-authorizations/rules';
import { apiClientRules } from './api-clients/rules';
import { collectionRules } from './collections/rules';
import { crudHandlers } from './common/crud';
import type { ResourceRules } from './common/rules';
import { contents } from '../contents/contents';
import { shared } from '../contents/shared';
import { containerRequestRules } from './container-requests/rules';
import { containerRules } from './containers/rules';
import { groupRules } from './groups/rules';
import { linkRules } from './links/rules';
import { logRules } from './logs/rules';
import { userRules } from './users/rules';
import { workflowRules } from './workflows/rules';

export const RESOURCE_RULES: readonly ResourceRules[] = [
  userRules,
  groupRules,
  collectionRules,
  containerRequestRules,
  containerRules,
  linkRules,
  workflowRules,
  apiClientAuthorizationRules,
  apiClientRules,
  logRules,
];

/**
 * endpoint id → handler, for every operation of the contract's endpoint table. Fails at start
 * if an endpoint has no handler or a handler no endpoint, so discovery lists exactly what is served.
 */
export function buildHandlers(): Map<string, Handler> {
  const handlers = new Map<string, Handler>([
    ['svc.groups.contents', contents],
    ['svc.groups.shared', shared],
  ]);
  for (const rules of RESOURCE_RULES) {
    const all = { ...crudHandlers(rules), ...(rules.extraHandlers ?? {}) };
    for (const [name, handler] of Object.entries(all)) {
      handlers.set(`svc.${rules.resource.type}.${name}`, handler);
    }
  }
  const served = new Set(ENDPOINTS.filter((e) => e.servedBy !== 'gateway').map(endpointId));
  const missing = [...served].filter((id) => !handlers.has(id));
  const extra = [...handlers.keys()].filter((id) => !served.has(id));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `endpoint table and handlers differ: missing ${missing.join(', ')}; extra ${extra.join(', ')}`,
    );
  }
  return handlers;
}

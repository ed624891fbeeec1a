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
import { createSystemAuth } from './api-client-authorizations/create-system-auth';
import { authorizedKeyRules } from './authorized-keys/rules';
import { listComputedPermissions } from './computed-permissions/list';
import { containerStatus } from './container-requests/container-status';
import { updatePriority } from './containers/update-priority';
import { credentialRules } from './credentials/rules';
import { keepServiceHandlers } from './keep-services/rules';
import { getPermissions } from './links/get-permissions';
import { userAgreementHandlers } from './user-agreements/handlers';
import { userHandlers } from './users/handlers';
import { virtualMachineRules } from './virtual-machines/rules';
import { provenance, usedBy } from '../provenance/handlers';
import { triggerTrashSweep } from '../jobs/trigger';
import { getVocabulary } from '../vocabulary/handler';

/** Operations of a type beyond (or instead of) its rules' generic ones, by type and name. */
const MORE_HANDLERS: Readonly<Record<string, Readonly<Record<string, Handler>>>> = {
  users: userHandlers,
  user_agreements: userAgreementHandlers,
  keep_services: keepServiceHandlers,
};

export const RESOURCE_RULES: readonly ResourceRules[] = [
  userRules,
  authorizedKeyRules,
  virtualMachineRules,
  credentialRules,
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
    ['svc.collections.provenance', provenance],
    ['svc.collections.used_by', usedBy],
    ['svc.container_requests.container_status', containerStatus],
    ['svc.containers.update_priority', updatePriority],
    ['svc.links.get_permissions', getPermissions],
    ['svc.computed_permissions.list', listComputedPermissions],
    ['svc.api_client_authorizations.create_system_auth', createSystemAuth],
    ['svc.sys.trash_sweep', triggerTrashSweep],
    ['svc.vocabularies.get', getVocabulary],
  ]);
  for (const rules of RESOURCE_RULES) {
    const all = { ...crudHandlers(rules), ...(rules.extraHandlers ?? {}) };
    for (const [name, handler] of Object.entries(all)) {
      handlers.set(`svc.${rules.resource.type}.${name}`, handler);
    }
  }
  for (const [type, ops] of Object.entries(MORE_HANDLERS)) {
    for (const [name, handler] of Object.entries(ops)) handlers.set(`svc.${type}.${name}`, handler);
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

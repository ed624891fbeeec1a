import { builtInUuids, moreMsg } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import type { Call, Reply } from '../../call';
import { requireAdmin } from '../../permissions/admin';
import { crudHandlers } from '../common/crud';
import { apiClientAuthorizationRules, requireTrustedClient } from './rules';

/**
 * `POST /api_client_authorizations/create_system_auth` (docs/api/more-resources.md §2): an admin with a
 * trusted client gets a new ordinary token of the system user, with the given scopes.
 */
export async function createSystemAuth(call: Call): Promise<Reply> {
  requireTrustedClient(call);
  requireAdmin(call);
  const scopes = call.options['scopes'] ?? ['all'];
  if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string'))
    throw new UnprocessableError(moreMsg.scopesArrayOfStrings());
  const attributes = {
    owner_uuid: builtInUuids(call.cluster.ClusterID).systemUser,
    scopes,
    expires_at: null,
  };
  return crudHandlers(apiClientAuthorizationRules).create!({ ...call, options: { attributes } });
}

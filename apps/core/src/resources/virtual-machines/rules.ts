import { virtualMachines } from '@svc/contract';
import { adminWritesPolicy, ownedPolicy } from '../../permissions/policies';
import type { AccessPolicy } from '../../permissions/policy';
import type { ResourceRules } from '../common/rules';
import { getAllLogins, logins } from './logins';

const owned = ownedPolicy('virtual_machines');

/**
 * Shell nodes (docs/api/more-resources.md §4.1): readable like an owned object (a can_login link counts
 * as can_read); only admins create, change or delete them.
 */
const virtualMachinePolicy: AccessPolicy = { ...adminWritesPolicy, visible: owned.visible };

export const virtualMachineRules: ResourceRules = {
  resource: virtualMachines,
  policy: virtualMachinePolicy,
  extraHandlers: { logins, get_all_logins: getAllLogins },
};

/**
 * The messages of the remaining resources and methods (user setup, keys, credentials, …), each
 * defined once as a function of its `<...>` parts. HTTP tests assert these texts literally.
 */
const q = (v: string): string => JSON.stringify(v);

export const moreMsg = {
  // create_system_auth (and api_client_authorizations generally)
  untrustedClient: () =>
    "Forbidden: this API client cannot manipulate other clients' access tokens.",
  scopesArrayOfStrings: () => 'scopes must be an array of strings',
  // authorized keys
  keyForAnotherUser: () => 'Forbidden: only admins may attach a key to another user',
  invalidKey: (detail: string) => `Public key does not appear to be valid: ${detail}`,
  keyExtraData: () => 'extra data after key',
  keyNotFound: () => 'ssh: no key found',
  keyNoTypeField: () => 'no leading type field',
  keyTypeMismatch: (field: string, type: string) =>
    `leading type field ${q(field)} does not match actual key type ${q(type)}`,
  keyExists: () => 'public_key already exists in the database, use a different key.',
  // users: setup, activate, unsetup, merge
  noVmFound: (vm: string) => `No vm found for ${vm}`,
  requiredUuidOrUser: () => 'Required uuid or user',
  requireUserEmail: () => 'Require user email',
  notInvited: () => 'Cannot activate without being invited.',
  unsignedAgreements: (uuids: readonly string[]) =>
    `Cannot activate without user agreements [${uuids.map(q).join(', ')}].`,
  rootCannotBeDeactivated: () => 'System root user cannot be deactivated',
  mergeNeedsAdmin: () => 'Must be admin to use old_user_uuid/new_user_uuid',
  mergeNeedsBoth: () => 'Must supply both old_user_uuid and new_user_uuid',
  mergeNewNotFound: () => 'User in new_user_uuid not found',
  mergeOldNotFound: () => 'User in old_user_uuid not found',
  mergeScopedToken: () => 'cannot merge with a scoped token',
  mergeInvalidToken: () => 'invalid new_user_token',
  mergeRestrictedToken: () => 'supplied new_user_token has restricted scope',
  mergeToSelf: () => 'cannot merge user to self',
  mergeMissingOwner: () => 'missing new_owner_uuid',
  mergeOwnerNotWritable: () =>
    'cannot move objects into supplied new_owner_uuid: new user does not have write permission',
  mergeAlreadyMerged: () => 'cannot merge an already merged user',
  mergeToMerged: () => 'cannot merge to an already merged user',
  // user agreements
  notAnAgreement: (uuid: string) => `uuid '${uuid}' is not a user agreement`,
  manageAgreements: () => 'Manage user agreements via Collections and Links instead.',
  // credentials
  credentialOwnerNotSystem: () => 'Owner uuid for credential must be system user',
  credentialOwnerKind: () => 'owner_uuid must be a user or a role',
  classNotImplemented: (klass: string) => `credential_class ${klass} is not implemented`,
  classConflicts: (klass: string) =>
    `credential_class ${klass} conflicts with reserved credential class svc:${klass}`,
  awsScopesBlank: () => 'scopes cannot be blank for credential class svc:aws_access_key',
  awsScopesInvalid: (bad: readonly string[]) =>
    `scopes not valid for credential class svc:aws_access_key: ${bad.join(', ')}`,
  cannotFilterSecret: () => "Cannot filter on 'secret'",
  cannotWhereSecret: () => "Cannot use 'secret' in where clause",
  cannotOrderSecret: () => "Cannot order by 'secret'",
  notRunningContainer: () => 'Token is not associated with a running container.',
  credentialExpired: () => 'Credential has expired.',
  // computed permissions
  computedFilterAttribute: (attr: string) => `Invalid attribute '${attr}' in filter`,
  computedFilterOperator: (attr: string, op: string) =>
    `Invalid attribute '${attr}' for operator '${op}' in filter`,
  computedCount: () => "count parameter must be 'none'",
  computedOffset: (n: string) => `non-zero offset parameter ${n} is not supported`,
  // keep services
  serviceHostBlank: () => "service_host can't be blank",
  servicePort: () => 'service_port must be an integer between 1 and 65535',
  serviceType: () => 'service_type must be one of disk, blob, proxy',
} as const;

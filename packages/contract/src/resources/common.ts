import type { Attributes } from '../types';

/** Fields every object has (requests-and-errors.md §10), none settable by clients but owner_uuid. */
export const commonAttributes = {
  kind: { type: 'string', stored: false, input: 'ignored', description: 'Object type' },
  etag: {
    type: 'string',
    stored: false,
    input: 'ignored',
    description: 'Changes whenever a stored attribute changes',
  },
  uuid: { type: 'string', input: 'hook', description: 'Object identifier' },
  owner_uuid: { type: 'string', reference: true, description: 'Owning user or project' },
  created_at: { type: 'datetime', input: 'ignored', description: 'Set once, by the server' },
  modified_at: { type: 'datetime', input: 'ignored', description: 'Set on every change' },
  modified_by_user_uuid: {
    type: 'string',
    nullable: true,
    input: 'ignored',
    description: 'User of the last change',
  },
} as const satisfies Attributes;

/** Keys dropped silently on create and update (requests-and-errors.md §4). */
export const silentlyIgnoredKeys = [
  'kind',
  'etag',
  'href',
  'created_at',
  'modified_at',
  'modified_by_user_uuid',
  'modified_by_client_uuid',
  'can_write',
  'can_manage',
  'writable_by',
] as const;

/** Computed permission fields of groups and users (permissions.md §10). */
export const permissionFlagAttributes = {
  can_write: {
    type: 'boolean',
    stored: false,
    input: 'ignored',
    description: 'The caller may write this object',
  },
  can_manage: {
    type: 'boolean',
    stored: false,
    input: 'ignored',
    description: 'The caller may manage this object',
  },
  writable_by: {
    type: 'array',
    stored: false,
    input: 'ignored',
    description: 'Deprecated: uuids with write permission',
  },
} as const satisfies Attributes;

/** trash_at / delete_at / is_trashed of groups and collections (groups.md §6). */
export const trashAttributes = {
  trash_at: { type: 'datetime', nullable: true, default: null },
  delete_at: { type: 'datetime', nullable: true, default: null },
  is_trashed: {
    type: 'boolean',
    stored: false,
    input: 'hook',
    sql: '(trash_at IS NOT NULL AND trash_at <= statement_timestamp())',
    description: 'trash_at is set and in the past',
  },
} as const satisfies Attributes;

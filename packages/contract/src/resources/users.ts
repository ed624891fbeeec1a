import { defineResource } from '../types';
import { commonAttributes, permissionFlagAttributes } from './common';

export const users = defineResource({
  type: 'users',
  singular: 'user',
  kind: 'svc#user',
  infix: 'tpzed',
  description: 'A person or service account that holds tokens and permissions.',
  attributes: {
    ...commonAttributes,
    email: { type: 'string', nullable: true, default: null },
    username: { type: 'string', nullable: true, default: null },
    first_name: { type: 'string', nullable: true, default: null },
    last_name: { type: 'string', nullable: true, default: null },
    full_name: {
      type: 'string',
      stored: false,
      input: 'ignored',
      sql: "btrim(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))",
      description: 'first_name and last_name, trimmed',
    },
    identity_url: { type: 'string', nullable: true, default: null },
    is_active: { type: 'boolean', default: false },
    is_admin: { type: 'boolean', default: false },
    is_invited: {
      type: 'boolean',
      stored: false,
      input: 'ignored',
      // A permission link to the all-users group: the user was set up (docs/api/more-resources.md §5.2).
      sql: `(is_active OR EXISTS (SELECT 1 FROM links l WHERE l.link_class = 'permission'
        AND l.tail_uuid = "users"."uuid" AND l.head_uuid LIKE '%-j7d0g-fffffffffffffff'))`,
      description: 'is_active, or set up, or new users are active',
    },
    prefs: { type: 'hash', default: {} },
    ...permissionFlagAttributes,
  },
});

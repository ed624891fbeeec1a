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
      description: 'is_active, or new users are active',
    },
    prefs: { type: 'hash', default: {} },
    ...permissionFlagAttributes,
  },
});

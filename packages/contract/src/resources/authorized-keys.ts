import { defineResource } from '../types';
import { commonAttributes } from './common';

export const authorizedKeys = defineResource({
  type: 'authorized_keys',
  singular: 'authorized_key',
  kind: 'svc#authorizedKey',
  infix: 'fngyi',
  description: 'An SSH public key that lets its user log in to shell nodes.',
  attributes: {
    ...commonAttributes,
    name: { type: 'string', nullable: true, default: null },
    key_type: { type: 'string', nullable: true, default: null, description: 'Free text: "SSH"' },
    authorized_user_uuid: {
      type: 'string',
      nullable: true,
      description: 'The user a login with this key acts as; default: the caller',
    },
    public_key: {
      type: 'text',
      nullable: true,
      default: null,
      description: 'One authorized_keys line: <type> <base64 key>[ <comment>]',
    },
    expires_at: { type: 'datetime', nullable: true, default: null },
  },
});

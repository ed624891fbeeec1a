import { defineResource } from '../types';
import { commonAttributes } from './common';

export const apiClientAuthorizations = defineResource({
  type: 'api_client_authorizations',
  singular: 'api_client_authorization',
  kind: 'svc#apiClientAuthorization',
  infix: 'gj3su',
  description: 'An API token record. Only a digest of the secret is stored.',
  attributes: {
    ...commonAttributes,
    api_token: {
      type: 'string',
      nullable: true,
      stored: false,
      input: 'hook',
      sql: 'NULL::text',
      description: 'The secret; only returned where the caller has it or was just given it',
    },
    api_client_uuid: {
      type: 'string',
      nullable: true,
      default: null,
      input: 'ignored',
    },
    scopes: { type: 'array', default: ['all'], typeMessage: 'scopes must be an array of strings' },
    expires_at: { type: 'datetime', nullable: true, default: null },
    created_by_ip_address: { type: 'string', nullable: true, default: null, input: 'ignored' },
    last_used_by_ip_address: { type: 'string', nullable: true, default: null, input: 'ignored' },
    last_used_at: { type: 'datetime', nullable: true, default: null, input: 'ignored' },
  },
});

import { defineResource } from '../types';
import { commonAttributes } from './common';

export const apiClients = defineResource({
  type: 'api_clients',
  singular: 'api_client',
  kind: 'svc#apiClient',
  infix: 'ozdt8',
  description: 'An application that obtains tokens through login; trusted ones may manage tokens.',
  attributes: {
    ...commonAttributes,
    name: { type: 'string', nullable: true, default: null },
    url_prefix: { type: 'string', nullable: true, default: null },
    is_trusted: { type: 'boolean', default: false },
  },
});

import { defineResource } from '../types';
import { commonAttributes } from './common';

/**
 * Block services (storage.md §8, docs/api/more-resources.md §11): records an admin stores; while none is
 * stored, one record is derived from the gateway the client reached.
 */
export const keepServices = defineResource({
  type: 'keep_services',
  singular: 'keep_service',
  kind: 'svc#keepService',
  infix: 'bi6l4',
  description: 'A block service clients read and write blocks through.',
  attributes: {
    ...commonAttributes,
    service_host: { type: 'string', nullable: true, description: 'Host name clients use' },
    service_port: {
      type: 'integer',
      nullable: true,
      typeMessage: 'service_port must be an integer between 1 and 65535',
      description: 'Port clients use',
    },
    service_ssl_flag: { type: 'boolean', default: false, description: 'Clients use https' },
    service_type: { type: 'string', default: 'disk', description: 'disk, blob or proxy' },
    read_only: { type: 'boolean', default: false, description: 'Blocks cannot be written here' },
  },
});

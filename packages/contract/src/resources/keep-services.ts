import { defineResource } from '../types';

const derived = (type: 'string' | 'integer' | 'boolean' | 'datetime', description: string) =>
  ({ type, stored: false, input: 'ignored', description }) as const;

/**
 * Block services (storage.md §8): they come from configuration and the request, not from a
 * table, so every attribute is derived and the resource is read-only (list, get and
 * `accessible`, answered by the gateway: the API table says so).
 */
export const keepServices = defineResource({
  type: 'keep_services',
  singular: 'keep_service',
  kind: 'svc#keepService',
  infix: 'bi6l4',
  description: 'A block service clients read and write blocks through.',
  attributes: {
    kind: derived('string', 'Object type'),
    etag: derived('string', 'Changes whenever the service changes'),
    uuid: derived('string', 'Object identifier'),
    owner_uuid: derived('string', 'The system user'),
    created_at: derived('datetime', 'When the gateway started'),
    modified_at: derived('datetime', 'When the gateway started'),
    modified_by_user_uuid: { ...derived('string', 'Always null'), nullable: true },
    service_host: derived('string', 'Host name clients use'),
    service_port: derived('integer', 'Port clients use'),
    service_ssl_flag: derived('boolean', 'Clients use https'),
    service_type: derived('string', '"proxy": the gateway'),
    read_only: derived('boolean', 'Blocks cannot be written here'),
  },
});

/**
 * Property keys any create or update may use with any value, vocabulary or not
 * (docs/api/more-resources.md §13): the server prefix and the keys its workflows write.
 */
const RESERVED_KEYS = new Set([
  'container_request',
  'container_uuid',
  'container',
  'type',
  'docker-image-repo-tag',
  'cwl_input',
  'cwl_output',
  'template_uuid',
  'workflowName',
  'filters',
  'groups',
  'image_timestamp',
  'username',
]);

export const RESERVED_PREFIX = 'svc:';

export const isReservedKey = (key: string): boolean =>
  key.startsWith(RESERVED_PREFIX) || RESERVED_KEYS.has(key);

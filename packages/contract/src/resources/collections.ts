import { defineResource } from '../types';
import { commonAttributes, trashAttributes } from './common';

export const collections = defineResource({
  type: 'collections',
  singular: 'collection',
  kind: 'svc#collection',
  infix: '4zz18',
  description: 'A set of files, described by a manifest.',
  uniqueNamePerOwner: true,
  trashable: true,
  attributes: {
    ...commonAttributes,
    name: { type: 'string', nullable: true, default: null, maxLength: 255 },
    description: { type: 'text', nullable: true, default: null },
    properties: { type: 'hash', default: {} },
    manifest_text: { type: 'text', default: '', input: 'hook', inLists: false },
    unsigned_manifest_text: {
      type: 'text',
      stored: false,
      input: 'ignored',
      sql: 'manifest_text',
      inLists: false,
    },
    portable_data_hash: { type: 'string', input: 'hook' },
    replication_desired: { type: 'integer', nullable: true, default: null },
    replication_confirmed: { type: 'integer', nullable: true, default: null, input: 'hook' },
    replication_confirmed_at: { type: 'datetime', nullable: true, default: null, input: 'hook' },
    storage_classes_desired: { type: 'array', default: ['default'] },
    storage_classes_confirmed: { type: 'array', default: [], input: 'hook' },
    storage_classes_confirmed_at: {
      type: 'datetime',
      nullable: true,
      default: null,
      input: 'hook',
    },
    ...trashAttributes,
    version: { type: 'integer', default: 1, input: 'ignored' },
    current_version_uuid: {
      type: 'string',
      stored: false,
      input: 'ignored',
      sql: 'uuid',
    },
    preserve_version: { type: 'boolean', default: false },
    file_count: { type: 'integer', default: 0, input: 'ignored' },
    file_size_total: { type: 'integer', default: 0, input: 'ignored' },
  },
});

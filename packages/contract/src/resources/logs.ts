import { defineResource } from '../types';
import { commonAttributes } from './common';

export const logs = defineResource({
  type: 'logs',
  singular: 'log',
  kind: 'svc#log',
  infix: '57u5n',
  description: 'A record of an event concerning an object.',
  attributes: {
    ...commonAttributes,
    object_uuid: { type: 'string', nullable: true, default: null },
    object_owner_uuid: { type: 'string', nullable: true, default: null },
    event_type: { type: 'string', default: '' },
    event_at: { type: 'datetime', description: 'Defaults to now' },
    summary: { type: 'text', nullable: true, default: null },
    properties: { type: 'hash', default: {} },
  },
});

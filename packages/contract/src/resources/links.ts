import { defineResource } from '../types';
import { commonAttributes } from './common';

export const links = defineResource({
  type: 'links',
  singular: 'link',
  kind: 'svc#link',
  infix: 'o0j2j',
  description: 'A typed edge between two objects; permission links grant access.',
  attributes: {
    ...commonAttributes,
    link_class: { type: 'string', required: true, description: 'permission, tag, star, ...' },
    name: { type: 'string', nullable: true, default: null },
    tail_uuid: { type: 'string', nullable: true, default: null, reference: true },
    head_uuid: { type: 'string', nullable: true, default: null, reference: true },
    properties: { type: 'hash', default: {} },
  },
});

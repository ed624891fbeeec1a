import { defineResource } from '../types';
import { commonAttributes } from './common';

export const workflows = defineResource({
  type: 'workflows',
  singular: 'workflow',
  kind: 'svc#workflow',
  infix: '7fd4e',
  description: 'A stored workflow definition.',
  attributes: {
    ...commonAttributes,
    name: { type: 'string', nullable: true, default: null },
    description: { type: 'text', nullable: true, default: null },
    definition: { type: 'text', nullable: true, default: null },
  },
});
